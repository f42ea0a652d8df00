// The scaled-out layout on one machine (issue 12): migrations, n efile processes per demo cluster, m portal processes
// and Debian's nginx in front, all on PostgreSQL and Redis. `npm run start:scaled` (start-scaled.mjs) and the tests
// in e2e/scaled/ both start it through `startScaled`, from the files an operator deploys: the systemd units in
// deploy/systemd/ (their ExecStart and Environment lines) and the nginx site deploy/nginx/hpc-portal.conf.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NGINX = '/usr/sbin/nginx';
export const DEMO_CLUSTERS = ['11250', '11251'];

/** A free TCP port on loopback (picked here and passed on: PORT=0 is not reported back by the servers). */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Installs Debian's nginx when it is missing (as .ci/run does); fails with a clear message when it cannot. */
export function ensureNginx() {
  if (fs.existsSync(NGINX)) return;
  if (process.getuid?.() !== 0)
    throw new Error(`${NGINX} is missing: install it with \`apt-get install nginx\``);
  console.log('Installing nginx (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx-light'], { stdio: 'inherit', env });
  if (r.status !== 0 || !fs.existsSync(NGINX)) {
    const full = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env });
    if (full.status !== 0 || !fs.existsSync(NGINX)) throw new Error('could not install nginx with apt-get');
  }
}

/**
 * The command and fixed environment of a systemd unit template: its `ExecStart=` (with /opt/hpc-portal read as this
 * checkout and /usr/bin/node as this Node) and `Environment=` lines, `%i` replaced by `instance`.
 */
export function readUnit(name, instance = '') {
  const text = fs.readFileSync(path.join(root, 'deploy/systemd', name), 'utf8');
  const env = {};
  let exec = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim().replaceAll('%i', instance);
    if (line.startsWith('Environment=')) {
      const [k, ...v] = line.slice('Environment='.length).split('=');
      env[k] = v.join('=');
    } else if (line.startsWith('ExecStart=')) {
      exec = line
        .slice('ExecStart='.length)
        .split(/\s+/)
        .map((a) => a.replace('/opt/hpc-portal', root));
      if (exec[0] === '/usr/bin/node') exec[0] = process.execPath;
    }
  }
  if (!exec) throw new Error(`deploy/systemd/${name} has no ExecStart`);
  return { command: exec[0], args: exec.slice(1), env };
}

/** Renders deploy/nginx/hpc-portal.conf: its placeholders, and its commented EFILE BLOCK once per efile instance. */
export function renderNginxSite({ listen, portals, efiles }) {
  const text = fs.readFileSync(path.join(root, 'deploy/nginx/hpc-portal.conf'), 'utf8');
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('# EFILE BLOCK'));
  const block = lines
    .slice(at)
    .filter((l) => l.startsWith('#    '))
    .map((l) => l.slice(1))
    .join('\n');
  const site = lines
    .slice(0, at)
    .filter((l) => !l.startsWith('#'))
    .join('\n');
  const locations = efiles
    .map((e) =>
      block
        .replaceAll('{{CLUSTER}}', e.clusterId)
        .replaceAll('{{N}}', String(e.n))
        .replaceAll('{{EFILE_ADDRESS}}', `127.0.0.1:${e.port}`),
    )
    .join('\n\n');
  return site
    .replace('{{LISTEN}}', listen)
    .replace(
      '{{PORTAL_SERVERS}}',
      portals.map((p) => `    server 127.0.0.1:${p.port} max_fails=0;`).join('\n'),
    )
    .replace('{{EFILE_LOCATIONS}}', locations);
}

/** nginx's own configuration around the site: in the run folder, in the foreground, logs to stderr. */
function nginxConf(runDir, sitePath) {
  const temp = path.join(runDir, 'nginx-temp');
  fs.mkdirSync(temp, { recursive: true });
  let user = '';
  if (process.getuid?.() === 0) {
    // Workers of a root master switch to an unprivileged user: it must reach the temp folders.
    const name = ['www-data', 'nobody'].find((u) => spawnSync('id', ['-u', u]).status === 0);
    const uid = Number(spawnSync('id', ['-u', name]).stdout);
    const gid = Number(spawnSync('id', ['-g', name]).stdout);
    fs.chmodSync(runDir, 0o755);
    fs.chownSync(temp, uid, gid);
    user = `user ${name};`;
  }
  return `${user}
daemon off;
worker_processes 2;
pid ${path.join(runDir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp}/client;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${sitePath};
}
`;
}

/**
 * Starts Debian's nginx in the foreground (our child) with the site rendered for these portals and efile instances;
 * its configuration goes to `<runDir>/<name>.conf` (the benchmarks run a second one with a single portal).
 */
export function startNginx({ runDir, name, listen, portals, efiles }) {
  const sitePath = path.join(runDir, `${name}-site.conf`);
  fs.writeFileSync(sitePath, renderNginxSite({ listen, portals, efiles }));
  const confPath = path.join(runDir, `${name}.conf`);
  fs.writeFileSync(confPath, nginxConf(runDir, sitePath).replace('nginx.pid', `${name}.pid`));
  const url = `http://${listen.replace(/^0\.0\.0\.0:/, '127.0.0.1:')}`;
  const proc = new Proc(
    name,
    NGINX,
    ['-e', 'stderr', '-p', runDir, '-c', confPath],
    {},
    `${url}/api/site/config`,
    path.join(runDir, 'logs', `${name}.log`),
  );
  proc.url = url;
  return proc.start();
}

/** One child process of the layout, restartable with the same command and environment. */
class Proc {
  constructor(name, command, args, env, health, logFile) {
    Object.assign(this, { name, command, args, env, health, logFile });
    this.child = null;
    this.log = '';
  }
  get pid() {
    return this.child?.pid;
  }
  get running() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
  output() {
    return this.log;
  }
  start() {
    const child = spawn(this.command, this.args, {
      cwd: root,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
    const append = (chunk) => {
      this.log = (this.log + chunk.toString()).slice(-200_000);
      if (this.logFile) fs.appendFileSync(this.logFile, chunk);
      this.onOutput?.(chunk.toString());
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    return this;
  }
  /** Waits until the health URL answers 2xx (the process may take long on a loaded machine; it may not exit). */
  async ready(timeoutMs = 120_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} exited:\n${this.log.slice(-4000)}`);
      const ok = await fetch(this.health, { signal: AbortSignal.timeout(3_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return this;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `${this.name} did not answer ${this.health} within ${timeoutMs} ms:\n${this.log.slice(-4000)}`,
    );
  }
  /** SIGTERM (finish what is in flight), then SIGKILL after `graceMs` if it is still there. */
  async stop(graceMs = 10_000) {
    if (!this.running) return;
    const child = this.child;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
  async kill9() {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
  signal(sig) {
    this.child?.kill(sig);
  }
  /** A rolling-restart step: stop (graceful up to `graceMs`), start again, wait until it answers. */
  async restart(graceMs = 10_000) {
    await this.stop(graceMs);
    return this.start().ready();
  }
}

function runAdmin(args, env) {
  const r = spawnSync(process.execPath, [path.join(root, 'apps/portal/dist/admin.js'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`admin ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * Starts the layout, in the order an operator would: migrations (and the demo data on an empty database), the
 * efile instances of each demo cluster (each cluster's efileUrl list naming all of them), the portal instances, and
 * nginx on `port` in front of the portals with no stickiness. The built servers are used (`node scripts/build.mjs`).
 *
 * @param {object} o
 * @param {string} o.databaseUrl PostgreSQL
 * @param {string} o.redisUrl Redis
 * @param {number} o.port nginx's port
 * @param {string} [o.host] nginx's address (backends always listen on 127.0.0.1)
 * @param {string} [o.publicUrl] the portal's public URL (default http://127.0.0.1:<port>)
 * @param {string} [o.runDir] data, keys, logs and nginx configuration (default: a new temp folder)
 * @param {number} [o.portals] portal instances (2)
 * @param {number} [o.efilesPerCluster] efile instances per cluster (2)
 * @param {string[]} [o.clusters] demo clusters to serve (both)
 * @param {Record<string,string>} [o.env] extra environment for every process
 * @param {Record<string,Record<string,string>>} [o.clusterEnv] extra environment for the efiles of one cluster
 * @param {boolean} [o.quiet] no progress lines
 */
export async function startScaled(o) {
  if (!o.databaseUrl || !/^postgres(ql)?:\/\//.test(o.databaseUrl))
    throw new Error(
      'DATABASE_URL must be a postgres:// URL: the scaled-out layout keeps its state in PostgreSQL',
    );
  if (!o.redisUrl || !/^rediss?:\/\//.test(o.redisUrl))
    throw new Error(
      'REDIS_URL must be a redis:// URL: the instances share locks, throttles and keys through Redis',
    );
  ensureNginx();
  for (const f of [
    'apps/portal/dist/server.js',
    'apps/portal/dist/admin.js',
    'apps/efile/dist/server.js',
    'apps/web/dist/index.html',
  ])
    if (!fs.existsSync(path.join(root, f)))
      throw new Error(`${f} is missing: run \`node scripts/build.mjs\` first`);
  const say = o.quiet ? () => undefined : (m) => console.log(m);
  const runDir = o.runDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-scaled-'));
  const dataDir = path.join(runDir, 'data');
  const logDir = path.join(runDir, 'logs');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.mkdirSync(logDir, { recursive: true });
  const host = o.host ?? '127.0.0.1';
  const publicUrl = (o.publicUrl ?? `http://127.0.0.1:${o.port}`).replace(/\/+$/, '');
  const clusters = o.clusters ?? DEMO_CLUSTERS;
  const shared = {
    DATABASE_URL: o.databaseUrl,
    REDIS_URL: o.redisUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // Lets the efile instances ask the portals for a share owner's current rights (docs/SECURITY.md).
    EFILE_SERVICE_SECRET: crypto.randomBytes(24).toString('base64url'),
    ...o.env,
  };
  const portalEnv = {
    ...shared,
    SIGNING_KEYS_DIR: path.join(dataDir, 'keys'),
    PUBLIC_URL: publicUrl,
    REDIS_KEY_PREFIX: 'portal:',
  };
  const procs = [];
  const layout = {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${o.port}`,
    runDir,
    dataDir,
    portals: [],
    efiles: {},
    nginx: null,
  };

  try {
    // 1. Migrations, then the demo data on an empty database, then each demo cluster's efile list: every instance.
    say('migrating the portal database…');
    runAdmin(['db', 'migrate'], portalEnv);
    say(runAdmin(['demo', 'seed'], portalEnv).trim());

    // 2. efile: n instances per cluster on one shared file system folder and one database schema per cluster.
    const efileList = [];
    for (const clusterId of clusters) {
      layout.efiles[clusterId] = [];
      const n = o.efilesPerCluster ?? 2;
      for (let i = 1; i <= n; i++) {
        const port = await freePort();
        const unit = readUnit('hpc-efile@.service', `${clusterId}-${i}`);
        const env = {
          ...shared,
          ...unit.env,
          EFILE_CLUSTER_ID: clusterId,
          EFILE_PORT: String(port),
          EFILE_HOST: '127.0.0.1',
          EFILE_FS_ROOT: path.join(dataDir, 'clusters', clusterId),
          EFILE_DB_SCHEMA: `efile_${clusterId}`,
          EFILE_DEMO: 'true',
          EFILE_JWKS_URL: `${publicUrl}/api/auth/jwks.json`,
          EFILE_PORTAL_PUBLIC_URL: publicUrl,
          EFILE_PUBLIC_URL: `${publicUrl}/efile/${clusterId}/${i}`,
          ...(o.clusterEnv?.[clusterId] ?? {}),
        };
        const p = new Proc(
          `efile ${clusterId}/${i}`,
          unit.command,
          unit.args,
          env,
          `http://127.0.0.1:${port}/check.action`,
          path.join(logDir, `efile-${clusterId}-${i}.log`),
        );
        Object.assign(p, { clusterId, n: i, port, path: `/efile/${clusterId}/${i}` });
        procs.push(p);
        layout.efiles[clusterId].push(p);
        efileList.push(p);
        say(`starting ${p.name} on 127.0.0.1:${port}`);
        // The first instance of a cluster migrates its schema; the others start after it.
        await p.start().ready();
      }
      runAdmin(
        ['cluster', 'set-service', clusterId, 'efileUrl', ...layout.efiles[clusterId].map((p) => p.path)],
        portalEnv,
      );
    }

    // 3. Portals.
    for (let i = 1; i <= (o.portals ?? 2); i++) {
      const port = await freePort();
      const unit = readUnit('hpc-portal@.service', String(port));
      const p = new Proc(
        `portal ${i}`,
        unit.command,
        unit.args,
        { ...portalEnv, ...unit.env, SEED_DEMO: 'false' },
        `http://127.0.0.1:${port}/api/site/config`,
        path.join(logDir, `portal-${i}.log`),
      );
      Object.assign(p, { n: i, port });
      procs.push(p);
      layout.portals.push(p);
      say(`starting ${p.name} on 127.0.0.1:${port}`);
      await p.start().ready();
    }

    // 4. nginx in front, in the foreground as our child.
    say(`starting nginx on ${host}:${o.port}`);
    const nginx = startNginx({
      runDir,
      name: 'nginx',
      listen: `${host}:${o.port}`,
      portals: layout.portals,
      efiles: efileList,
    });
    procs.push(nginx);
    layout.nginx = nginx;
    await nginx.ready();
  } catch (e) {
    await Promise.all(procs.map((p) => p.kill9()));
    throw e;
  }

  layout.admin = (args) => runAdmin(args, portalEnv);
  layout.stop = async () => {
    // Front to back: nginx, portals, efiles.
    for (const p of [...procs].reverse()) await p.stop(5_000);
  };
  return layout;
}
