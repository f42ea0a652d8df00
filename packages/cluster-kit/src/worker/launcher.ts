import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CommonCodes, type ServerText } from '@hpc/contracts';
import { checkAccount, defaultUmask, type Account, type AccountRules } from '../accounts/accounts';
import { ClusterKitText } from '../messages';
import { wireText } from '../wire/wire-format';
import type { ServeMessage } from './handoff';

/** The launcher's settings, from the front end that forked it (in the environment variable LAUNCHER_ENV, JSON). */
export interface LauncherSettings {
  /** Where worker sockets and pid files go (`<runDir>/workers`); one per service. */
  runDir: string;
  rules: AccountRules;
  /** The account that owns worker sockets: the front end's (after it drops root), so only it may connect. */
  socketOwnerUid: number;
  idleSeconds: number;
  /** The service's own settings for its workers (nothing secret: a worker is the user). */
  workerEnv: Record<string, string>;
}

export const LAUNCHER_ENV = 'CLUSTER_KIT_LAUNCHER';

/** Front end → launcher. */
export type LauncherRequest = { op: 'start' | 'stop'; id: number; user: string } | ServeMessage;

/**
 * What a worker inherits of the launcher's environment: the locale, the clock, the path and Node's own settings.
 * Never the rest: a worker is the user, and whatever it starts (a job service's `sbatch`, and so the job itself)
 * would carry the service's database address, secrets and keys into the user's hands.
 */
const INHERITED =
  /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|NODE_OPTIONS|NODE_ENV|NODE_V8_COVERAGE|UV_THREADPOOL_SIZE)$/;

export function workerEnvironment(
  env: NodeJS.ProcessEnv,
  account: Account,
  own: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && INHERITED.test(k)) out[k] = v;
  return {
    ...out,
    ...own,
    HOME: account.home,
    USER: account.name,
    LOGNAME: account.name,
    SHELL: account.shell,
  };
}

/**
 * The root launcher (issue 10 §1), forked by the front end while it is still root. It stays root and does only this:
 * on a request for a user (over the IPC channel, the only way to reach it) it checks the account again itself, binds
 * the worker's Unix socket (mode 0600, owned by the front end's account), forks the service's worker entry `entry`
 * as `worker <user> <uid> <gid> <umask> <idle s>` and hands it the socket; it forwards hand-offs of client
 * connections to the user's worker, and stops workers on request (admin restart, the front end's limit).
 */
export function runLauncher(entry: string, s: LauncherSettings): void {
  const dir = path.join(s.runDir, 'workers');
  fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
  fs.chmodSync(dir, 0o711);
  const workers = new Map<string, ChildProcess>();
  const reply = (m: unknown) => process.send?.(m);
  const umask = String(defaultUmask());

  process.on('message', (m: LauncherRequest, handle?: net.Socket) => {
    if (m.op === 'stop') {
      workers.get(m.user)?.kill('SIGTERM');
      return;
    }
    if (m.op === 'serve') return forward(m, handle);
    let account: Account;
    try {
      account = checkAccount(m.user, s.rules);
    } catch (e) {
      // checkAccount's AppError, its Chinese with it.
      const err = e as { code?: string; message: string; zh?: string | null };
      const zh = err.zh ? { zh: err.zh } : {};
      return reply({
        id: m.id,
        error: { code: err.code ?? CommonCodes.unavailable, message: err.message, ...zh },
      });
    }
    start(m.id, m.user, account);
  });
  reply({ launcherReady: true });

  function start(id: number, user: string, account: Account) {
    const sock = path.join(dir, `${account.uid}-${process.hrtime.bigint().toString(36)}.sock`);
    // Bound under a temporary name, handed to the worker, then renamed into place and closed here: a listening
    // socket open in two processes has the kernel share its connections between them, and the launcher's copy
    // would leave some unanswered; closing it under its final name would unlink that name.
    const bound = `${sock}.new`;
    const server = net.createServer();
    server.listen(bound, () => {
      fs.chmodSync(bound, 0o600);
      fs.chownSync(bound, s.socketOwnerUid, 0);
      const args = [account.name, account.uid, account.gid, umask, s.idleSeconds].map(String);
      const child = fork(entry, ['worker', ...args], {
        execArgv: process.execArgv,
        env: workerEnvironment(process.env, account, s.workerEnv),
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      workers.set(user, child);
      fs.writeFileSync(path.join(dir, `${user}.pid`), String(child.pid));
      let ready = false;
      child.on('message', (msg: { ready?: boolean; hello?: boolean; served?: number; error?: unknown }) => {
        settleServes(msg);
        if (msg.hello) child.send({ serve: true }, server);
        if (msg.ready && !ready) {
          ready = true;
          fs.renameSync(bound, sock);
          server.close();
          reply({ id, socket: sock, pid: child.pid });
        }
      });
      child.once('exit', (code) => {
        failServesOf(child);
        if (workers.get(user) === child) workers.delete(user);
        if (!ready) server.close();
        fs.rmSync(sock, { force: true });
        if (!ready)
          reply({
            id,
            error: {
              code: CommonCodes.unavailable,
              ...wireText(ClusterKitText.workerStartFailed(user, String(code))),
            },
          });
        reply({ exit: user, pid: child.pid });
      });
    });
  }

  /** Which hand-offs each worker is answering: a worker that dies fails them (the front end waits for each). */
  const serving = new Map<number, ChildProcess>();
  const failServe = (id: number, message: ServerText) =>
    reply({ id, served: true, error: { code: CommonCodes.unavailable, ...wireText(message) } });

  /**
   * Passes a client connection on to the user's worker. The launcher never reads from it: its copy of the
   * descriptor is closed as soon as the worker has its own.
   */
  function forward(m: ServeMessage, handle?: net.Socket) {
    const child = workers.get(m.user);
    if (!handle) return failServe(m.id, ClusterKitText.noHandedConnection);
    if (!child?.connected) {
      handle.destroy();
      return failServe(m.id, ClusterKitText.workerNotRunning(m.user));
    }
    serving.set(m.id, child);
    child.send(m, handle, { keepOpen: true }, (err) => {
      handle.destroy();
      if (err) {
        serving.delete(m.id);
        failServe(m.id, ClusterKitText.workerRefusedConnection(m.user));
      }
    });
  }
  const settleServes = (msg: { served?: number; error?: unknown }) => {
    if (msg.served === undefined) return;
    serving.delete(msg.served);
    reply({ id: msg.served, served: true, error: msg.error });
  };
  const failServesOf = (child: ChildProcess) => {
    for (const [id, c] of serving)
      if (c === child) {
        serving.delete(id);
        failServe(id, ClusterKitText.workerGone);
      }
  };
  process.on('disconnect', () => {
    for (const w of workers.values()) w.kill('SIGTERM');
    process.exit(0);
  });
}

/** The launcher's settings from its environment (set by `UserWorkers.startLauncher`). */
export function launcherSettings(env: NodeJS.ProcessEnv = process.env): LauncherSettings {
  const raw = env[LAUNCHER_ENV];
  if (!raw) throw new Error(`${LAUNCHER_ENV} is not set: the launcher is started by the service's front end`);
  return JSON.parse(raw) as LauncherSettings;
}
