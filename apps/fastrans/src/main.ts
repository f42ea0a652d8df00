import fs from 'node:fs';
import path from 'node:path';
import { FastransTaskState } from '@hpc/contracts';
import { startClient } from './app';
import { clientWho, loadConfig } from './config';
import { Owner, Session } from './session';
import { HistoryStore } from './store/history';
import { Runner } from './transfer/runner';
import { CLIENT_VERSION } from './version';

const STATE_NAMES = Object.fromEntries(Object.entries(FastransTaskState).map(([k, v]) => [v, k]));

const USAGE = `fastrans ${CLIENT_VERSION}: the fast-transfer client of the HPC portal
  fastrans [serve]                       run the local server the E-File page drives (with --token: logged in)
  fastrans stop                          stop the running local server
  fastrans upload <local> <remote-dir>   upload a file or folder
  fastrans download <remote> <local-dir> download a remote file or folder
  fastrans status                        list the transfer history
  fastrans unpair                        free the client for another portal user's page (it pairs at the first)
Options: --token T (or FASTRANS_TOKEN; the day token from the E-File page), --portal URL, --overwrite`;

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}

const human = (n: number) =>
  n >= 1 << 30
    ? `${(n / 2 ** 30).toFixed(1)} GiB`
    : n >= 1 << 20
      ? `${(n / 2 ** 20).toFixed(1)} MiB`
      : `${n} B`;

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  const token = arg(args, '--token') ?? process.env.FASTRANS_TOKEN;
  const portalArg = arg(args, '--portal');
  const overwrite = args.includes('--overwrite');
  const pos = args.filter((a) => !a.startsWith('--'));
  const cmd = pos[0] ?? 'serve';
  // `node fastrans.cjs` (every system but Linux x64): the package's fastrans.json is beside the script, not beside
  // the node binary; the single executable has it beside itself.
  const script = process.argv[1] ?? '';
  const config = loadConfig(
    process.env,
    script.endsWith('.cjs') ? path.dirname(path.resolve(script)) : path.dirname(process.execPath),
  );
  const pidFile = path.join(config.configDir, 'fastrans.pid');

  if (cmd === 'help' || args.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  if (cmd === 'unpair') {
    await new Owner(config.configDir).unpair();
    console.log('unpaired: the next page login pairs this client with its portal user');
    return 0;
  }
  if (cmd === 'version' || args.includes('--version')) {
    console.log(CLIENT_VERSION);
    return 0;
  }
  if (cmd === 'serve') {
    const client = await startClient({ config });
    // A token on the command line logs in at once: the client then polls the portal, so a page whose browser
    // blocks the local connection reaches it through the relay without ever connecting directly.
    const portal = portalArg ? new URL(portalArg).origin : config.portal;
    if (token && portal) {
      const info = await client.session.login(portal, token);
      client.runner.setRemote(client.session.remote);
      console.log(`logged in as ${info.clusterUserName} on cluster ${info.clusterId}`);
    }
    fs.mkdirSync(config.configDir, { recursive: true });
    fs.writeFileSync(pidFile, String(process.pid));
    const stop = () => {
      void client.close().finally(() => {
        fs.rmSync(pidFile, { force: true });
        process.exit(0);
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return -1; // keep running
  }
  if (cmd === 'stop') {
    const pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : NaN);
    if (!pid) {
      console.error('the client is not running');
      return 1;
    }
    process.kill(pid, 'SIGTERM');
    return 0;
  }
  if (cmd === 'status') {
    for (const t of await new HistoryStore(config.configDir).load()) {
      console.log(
        `${t.id}  ${t.kind.padEnd(8)} ${String(STATE_NAMES[t.state]).padEnd(12)} ${t.filesDone}/${t.filesTotal} files  ${human(t.bytesDone)}/${human(t.bytesTotal)}  ${t.kind === 'upload' ? `${t.local} -> ${t.remote}` : `${t.remote} -> ${t.local}`}${t.error ? `  (${t.error})` : ''}`,
      );
    }
    return 0;
  }
  if (cmd === 'upload' || cmd === 'download') {
    const [, from, to] = pos;
    const portal = portalArg ? new URL(portalArg).origin : config.portal;
    if (!from || !to || !token || !portal) {
      console.error(USAGE);
      return 2;
    }
    const session = new Session(config.configDir, clientWho(config.configDir, config.label));
    const info = await session.login(portal, token, false);
    const runner = new Runner({
      store: new HistoryStore(config.configDir),
      emit: (s) => {
        process.stderr.write(
          `\r${String(STATE_NAMES[s.state])} ${s.count}/${s.files} files ${human(s.bytesDone)}/${human(s.bytesTotal)} ${human(s.speed)}/s   `,
        );
      },
      log: (m) => console.error(m),
    });
    runner.setRemote(session.remote);
    const remotePath = (p: string) => (p.startsWith('/') ? p : `${info.homePath}/${p}`);
    const task =
      cmd === 'upload'
        ? await runner.addUpload(from, remotePath(to), overwrite)
        : await runner.addDownload([remotePath(from)], to, overwrite);
    const end = await runner.waitFor(task.task_id);
    await runner.close();
    await session.close();
    process.stderr.write('\n');
    console.log(
      `${String(STATE_NAMES[end.state])}: ${end.count}/${end.files} files${end.error ? ` (${end.error})` : ''}`,
    );
    return end.state === FastransTaskState.successful ? 0 : 1;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error((e as Error).message);
    process.exit(1);
  },
);
