import fs from 'node:fs';
import path from 'node:path';
import { FastransTaskState } from '@hpc/contracts';
import { startClient } from './app';
import { clientWho, loadConfig } from './config';
import { Owner, Session } from './session';
import { HistoryStore } from './store/history';
import { Runner } from './transfer/runner';
import { CLIENT_VERSION } from './version';
import { CliText, cliLanguage, cliWords } from './cli-text';

const words = cliWords(cliLanguage(process.env));
const usage = () => words.say(CliText.usage(CLIENT_VERSION));

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}

const files = (done: number, total: number) => words.say(CliText.files(String(done), String(total)));

const human = (n: number) =>
  n >= 1 << 30
    ? `${(n / 2 ** 30).toFixed(1)} GiB`
    : n >= 1 << 20
      ? `${(n / 2 ** 20).toFixed(1)} MiB`
      : `${n} B`;

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  // Only from the environment (readable by its owner alone): a token in the arguments is in /proc/<pid>/cmdline,
  // which every local account reads for as long as the client runs (found from outside, 2026-12-01).
  if (args.includes('--token')) {
    console.error(words.say(CliText.tokenInArguments));
    return 2;
  }
  const token = process.env.FASTRANS_TOKEN;
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
    console.log(usage());
    return 0;
  }
  if (cmd === 'unpair') {
    await new Owner(config.configDir).unpair();
    console.log(words.say(CliText.unpaired));
    return 0;
  }
  if (cmd === 'version' || args.includes('--version')) {
    console.log(CLIENT_VERSION);
    return 0;
  }
  if (cmd === 'serve') {
    if (config.clientKeyExposed) console.error(words.say(CliText.keyExposed(config.clientKeyExposed)));
    const client = await startClient({ config });
    // A token on the command line logs in at once: the client then polls the portal, so a page whose browser
    // blocks the local connection reaches it through the relay without ever connecting directly.
    const portal = portalArg ? new URL(portalArg).origin : config.portal;
    if (token && portal) {
      const info = await client.session.login(portal, token);
      client.runner.setRemote(client.session.remote);
      console.log(words.say(CliText.loggedIn(info.clusterUserName, info.clusterId)));
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
      console.error(words.say(CliText.notRunning));
      return 1;
    }
    process.kill(pid, 'SIGTERM');
    return 0;
  }
  if (cmd === 'status') {
    for (const t of await new HistoryStore(config.configDir).load()) {
      console.log(
        `${t.id}  ${t.kind.padEnd(8)} ${words.state(t.state).padEnd(12)} ${files(t.filesDone, t.filesTotal)}  ${human(t.bytesDone)}/${human(t.bytesTotal)}  ${t.kind === 'upload' ? `${t.local} -> ${t.remote}` : `${t.remote} -> ${t.local}`}${t.error ? `  (${words.taskError(t.error)})` : ''}`,
      );
    }
    return 0;
  }
  if (cmd === 'upload' || cmd === 'download') {
    const [, from, to] = pos;
    const portal = portalArg ? new URL(portalArg).origin : config.portal;
    if (!from || !to || !token || !portal) {
      console.error(usage());
      return 2;
    }
    const session = new Session(config.configDir, clientWho(config.configDir, config.label));
    const info = await session.login(portal, token, false);
    const runner = new Runner({
      store: new HistoryStore(config.configDir),
      emit: (s) => {
        process.stderr.write(
          `\r${words.state(s.state)} ${files(s.count, s.files)} ${human(s.bytesDone)}/${human(s.bytesTotal)} ${human(s.speed)}/s   `,
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
      `${words.state(end.state)}: ${files(end.count, end.files)}${end.error ? ` (${words.taskError(end.error)})` : ''}`,
    );
    return end.state === FastransTaskState.successful ? 0 : 1;
  }
  console.error(usage());
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(words.failure(e));
    process.exit(1);
  },
);
