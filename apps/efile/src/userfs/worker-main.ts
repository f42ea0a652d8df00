/**
 * The root launcher and the per-user worker of unix mode (issue 10 §1), one script in two roles:
 *
 *   launcher: forked by the front end while it is still root, it stays root and does only this: on a request for a
 *     user (over the IPC channel, the only way to reach it) it checks the account again itself, binds the worker's
 *     Unix socket (mode 0600, owned by the front end's account), starts `worker` and hands it the socket.
 *   worker <user> <uid> <gid> <umask>: becomes the user before anything else (initgroups, setgid, setuid: Node's
 *     spawn({uid, gid}) would drop the supplementary groups), then serves the user's files on the socket it is
 *     handed, and exits after EFILE_WORKER_IDLE_S idle seconds.
 *   restart <user>: the admin command; stops that user's worker (the next request starts a new one, with the
 *     user's current groups).
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommonCodes } from '@hpc/contracts';
import type { ServeMessage } from './handoff';

const [role, ...rest] = process.argv.slice(2);

if (role === 'worker') {
  const [name, uid, gid, umask] = rest as [string, string, string, string];
  // Identity first: nothing of the user's is touched before the process is the user.
  (process as unknown as { initgroups(user: string, gid: number): void }).initgroups(name, Number(gid));
  process.setgid!(Number(gid));
  process.setuid!(Number(uid));
  if (
    process.getuid!() !== Number(uid) ||
    process.geteuid!() !== Number(uid) ||
    process.getegid!() !== Number(gid)
  )
    process.exit(70);
  let back = false;
  try {
    process.setuid!(0);
    back = true;
  } catch {
    /* expected: root is gone for good */
  }
  if (back) process.exit(71);
  process.umask(Number(umask));
  await runWorker();
} else if (role === 'launcher') {
  runLauncher();
} else if (role === 'restart') {
  const runDir = process.env.EFILE_RUN_DIR ?? '';
  const pidFile = path.join(runDir, 'workers', `${rest[0] ?? ''}.pid`);
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  process.kill(pid, 'SIGTERM');
  console.log(`stopped the worker of ${rest[0]} (pid ${pid}); its next request starts a new one`);
} else {
  console.error('usage: efile-worker launcher | worker … | restart <user>');
  process.exit(64);
}

async function runWorker() {
  const { PathResolver } = await import('../fs/path-resolver');
  const { LocalUserFs } = await import('./local');
  const { workerServer } = await import('./worker-server');
  const { toWire } = await import('./wire');
  const fsRoot = process.env.EFILE_WORKER_FS_ROOT ?? '/';
  const idleMs = Number(process.env.EFILE_WORKER_IDLE_S ?? 300) * 1000;
  const fsx = new LocalUserFs(new PathResolver(fsRoot), { asUser: true });
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idleTimer);
    if (active === 0) idleTimer = setTimeout(() => process.exit(0), idleMs);
  };
  const { server, serve } = workerServer(fsx, (d) => {
    active += d;
    arm();
  });
  // The launcher's listening socket: its connections are this HTTP server's (Node's pattern for handed servers).
  process.once('message', (_m, handle) => {
    (handle as net.Server).on('connection', (sock: net.Socket) => server.emit('connection', sock));
    process.send?.({ ready: true });
    arm();
    // Then client connections handed over for one download or zip each (handoff.ts); the answer says when done.
    process.on('message', (m: Partial<ServeMessage>, sock?: net.Socket) => {
      if (m.op !== 'serve' || !sock || !m.job || m.head === undefined) return;
      serve(m.job, m.head, sock).then(
        () => process.send?.({ served: m.id }),
        (e: unknown) => process.send?.({ served: m.id, error: toWire(e) }),
      );
    });
  });
  // Only now may the socket come: a message that arrives before a listener exists is lost.
  process.send?.({ hello: true });
  process.on('disconnect', () => process.exit(0));
  // The launcher stops a worker with SIGTERM (restart, shutdown): an exit of our own, so that what Node does at exit
  // (a --cpu-prof profile of a bench run) still happens. The answers in flight are cut either way.
  process.on('SIGTERM', () => process.exit(0));
}

interface StartRequest {
  op: 'start' | 'stop';
  id: number;
  user: string;
}

type LauncherRequest = StartRequest | ServeMessage;

function runLauncher() {
  const rules = {
    minUid: Number(process.env.EFILE_MIN_UID ?? 1000),
    refusedShells: (process.env.EFILE_REFUSED_SHELLS ?? '').split(',').filter(Boolean),
  };
  const runDir = process.env.EFILE_RUN_DIR!;
  const ownerUid = Number(process.env.EFILE_SOCKET_OWNER_UID ?? 0);
  const dir = path.join(runDir, 'workers');
  fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
  fs.chmodSync(dir, 0o711);
  const workers = new Map<string, ChildProcess>();
  const self = fileURLToPath(import.meta.url);
  const reply = (m: unknown) => process.send?.(m);

  void import('./accounts').then(({ checkAccount, defaultUmask }) => {
    const umask = String(defaultUmask());
    process.on('message', (m: LauncherRequest, handle?: net.Socket) => {
      if (m.op === 'stop') {
        workers.get(m.user)?.kill('SIGTERM');
        return;
      }
      if (m.op === 'serve') return forward(m, handle);
      let account;
      try {
        account = checkAccount(m.user, rules);
      } catch (e) {
        const err = e as { code?: string; message: string };
        return reply({
          id: m.id,
          error: { code: err.code ?? CommonCodes.unavailable, message: err.message },
        });
      }
      const sock = path.join(dir, `${account.uid}-${process.hrtime.bigint().toString(36)}.sock`);
      // Bound under a temporary name, handed to the worker, then renamed into place and closed here: a listening
      // socket open in two processes has the kernel share its connections between them, and the launcher's copy
      // would leave some unanswered; closing it under its final name would unlink that name.
      const bound = `${sock}.new`;
      const server = net.createServer();
      server.listen(bound, () => {
        fs.chmodSync(bound, 0o600);
        fs.chownSync(bound, ownerUid, 0);
        const child = fork(self, ['worker', account.name, String(account.uid), String(account.gid), umask], {
          execArgv: process.execArgv,
          env: { ...process.env },
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        workers.set(m.user, child);
        fs.writeFileSync(path.join(dir, `${m.user}.pid`), String(child.pid));
        let ready = false;
        child.on('message', (msg: { ready?: boolean; hello?: boolean; served?: number; error?: unknown }) => {
          settleServes(msg);
          if (msg.hello) child.send({ serve: true }, server);
          if (msg.ready && !ready) {
            ready = true;
            fs.renameSync(bound, sock);
            server.close();
            reply({ id: m.id, socket: sock, pid: child.pid });
          }
        });
        child.once('exit', (code) => {
          failServesOf(child);
          if (workers.get(m.user) === child) workers.delete(m.user);
          if (!ready) server.close();
          fs.rmSync(sock, { force: true });
          if (!ready)
            reply({
              id: m.id,
              error: {
                code: CommonCodes.unavailable,
                message: `The worker of ${m.user} failed to start (${code})`,
              },
            });
          reply({ exit: m.user, pid: child.pid });
        });
      });
    });
    reply({ launcherReady: true });
  });

  /** Which hand-offs each worker is answering: a worker that dies fails them (the front end waits for each). */
  const serving = new Map<number, ChildProcess>();
  const failServe = (id: number, message: string) =>
    reply({ id, served: true, error: { code: CommonCodes.unavailable, message } });

  /**
   * Passes a client connection on to the user's worker (handoff.ts). The launcher never reads from it: its copy of
   * the descriptor is closed as soon as the worker has its own.
   */
  function forward(m: ServeMessage, handle?: net.Socket) {
    const child = workers.get(m.user);
    if (!handle) return failServe(m.id, 'No connection came with the hand-off');
    if (!child?.connected) {
      handle.destroy();
      return failServe(m.id, `The worker of ${m.user} is not running`);
    }
    serving.set(m.id, child);
    child.send(m, handle, { keepOpen: true }, (err) => {
      handle.destroy();
      if (err) {
        serving.delete(m.id);
        failServe(m.id, `The worker of ${m.user} did not take the connection`);
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
        failServe(id, 'The user worker stopped during the request; retry');
      }
  };
  process.on('disconnect', () => {
    for (const w of workers.values()) w.kill('SIGTERM');
    process.exit(0);
  });
}
