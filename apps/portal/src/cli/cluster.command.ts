import { SERVICE_LIST_PARAMS, type ServiceEntry, type ServiceListParam } from '@hpc/contracts';
import { UsageError, arg, opt, type Command } from './command';

/** `url` or `url=true` enables the entry, `url=false` lists it disabled. */
function entry(text: string): ServiceEntry {
  const m = /^(.*?)(?:=(true|false))?$/.exec(text)!;
  if (!m[1]) throw new UsageError(`not a service entry: ${text}`);
  return { url: m[1], enable: m[2] === 'false' ? 'false' : 'true' };
}

/** `storage grant` makes a grant, `storage revoke` takes it back: `<clusterId> <path> (--user U | --group G)`. */
const storageCommand = (verb: 'grant' | 'revoke', summary: string): Command => ({
  name: `storage ${verb}`,
  usage: `storage ${verb} <clusterId> <path> (--user U | --group G)`,
  summary,
  valueOptions: ['user', 'group'],
  async run({ services, out }, args) {
    const grant = {
      clusterId: arg(args, 0, 'clusterId'),
      path: arg(args, 1, 'path'),
      username: opt(args, 'user'),
      groupId: opt(args, 'group'),
    };
    if (verb === 'grant') await services.computeUsers.grantPath(grant);
    else await services.computeUsers.revokePath(grant);
    out(verb === 'grant' ? 'granted' : 'revoked');
  },
});

export const clusterCommands: Command[] = [
  {
    name: 'cluster add',
    usage: 'cluster add <clusterId> --name 中文名 [--name-en "English name"] [--home-root /public/home]',
    summary:
      'create a cluster (computing centre); a name containing 停用 marks it disabled and sorts it last',
    valueOptions: ['name', 'name-en', 'home-root'],
    async run({ services, out }, args) {
      const clusterId = arg(args, 0, 'clusterId');
      const centerName = opt(args, 'name');
      if (!centerName) throw new UsageError('give --name');
      await services.clusters.add({
        clusterId,
        centerName,
        centerNameEn: opt(args, 'name-en'),
        homeRoot: opt(args, 'home-root'),
      });
      out(`cluster ${clusterId} created`);
    },
  },
  {
    name: 'cluster rename',
    usage: 'cluster rename <clusterId> [--name 中文名] [--name-en "English name"]',
    summary: "change a cluster's names",
    valueOptions: ['name', 'name-en'],
    async run({ services, out }, args) {
      const clusterId = arg(args, 0, 'clusterId');
      await services.clusters.rename(clusterId, {
        centerName: opt(args, 'name'),
        centerNameEn: opt(args, 'name-en'),
      });
      out(`cluster ${clusterId} renamed`);
    },
  },
  {
    name: 'cluster set-param',
    usage: 'cluster set-param <clusterId> <name> <value>',
    summary: 'set one param (e.g. default_user_home_path, site_hosts); an empty value removes it',
    async run({ services, out }, args) {
      const clusterId = arg(args, 0, 'clusterId');
      const name = arg(args, 1, 'name');
      await services.clusters.setParam(clusterId, name, args.positionals[2] ?? '');
      out(`${clusterId} ${name} set`);
    },
  },
  {
    name: 'cluster set-service',
    usage: `cluster set-service <clusterId> <${SERVICE_LIST_PARAMS.join('|')}> [url[=true|false] …]`,
    summary: 'replace a service list (no URL: an empty list)',
    async run({ services, out }, args) {
      const clusterId = arg(args, 0, 'clusterId');
      const service = arg(args, 1, 'service');
      if (!(SERVICE_LIST_PARAMS as readonly string[]).includes(service)) {
        throw new UsageError(`the service is one of ${SERVICE_LIST_PARAMS.join(', ')}`);
      }
      const entries = args.positionals.slice(2).map(entry);
      await services.clusters.setServiceList(clusterId, service as ServiceListParam, entries);
      out(`${clusterId} ${service} = ${JSON.stringify(entries)}`);
    },
  },
  {
    name: 'cluster list',
    usage: 'cluster list',
    summary: 'list the clusters with their params',
    async run({ services, out }) {
      for (const c of await services.clusters.list()) {
        out(`${c.clusterId}\t${c.centerName}\t${c.centerNameEn}${c.disabled ? '\t(disabled)' : ''}`);
        for (const [k, v] of Object.entries(c.params)) out(`    ${k} = ${v}`);
      }
    },
  },
  {
    name: 'computeuser add',
    usage:
      'computeuser add <username> <clusterId> [--name clusterUserName] [--home /path/name] [--account accountId]',
    summary:
      "create or change a user's compute user on a cluster (default name: the username; default home: <home root>/<name>)",
    valueOptions: ['name', 'home', 'account'],
    async run({ services, out }, args) {
      const username = arg(args, 0, 'username');
      const clusterId = arg(args, 1, 'clusterId');
      await services.computeUsers.setComputeUser({
        username,
        clusterId,
        clusterUserName: opt(args, 'name'),
        homePath: opt(args, 'home'),
        accountId: opt(args, 'account'),
      });
      out(`compute user of ${username} on ${clusterId} set`);
    },
  },
  {
    name: 'computeuser remove',
    usage: 'computeuser remove <username> <clusterId>',
    summary: "remove a user's compute user on a cluster",
    async run({ services, out }, args) {
      await services.computeUsers.removeComputeUser(arg(args, 0, 'username'), arg(args, 1, 'clusterId'));
      out('removed');
    },
  },
  storageCommand('grant', 'grant a shared storage path on a cluster to a user or a user group'),
  storageCommand('revoke', 'take a shared storage grant back'),
];
