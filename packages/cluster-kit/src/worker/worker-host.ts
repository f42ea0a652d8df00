import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { ClusterKitText } from '../messages';
import { sendJson } from '../wire/call-server';
import { toWire } from '../wire/wire-format';
import type { ServeMessage } from './handoff';

/** Who a worker is: passed by the launcher on the worker's command line. */
export interface WorkerIdentity {
  user: string;
  uid: number;
  gid: number;
  umask: number;
  idleSeconds: number;
}

/** What a service's worker answers, made by its entry once the process is the user. */
export interface WorkerService {
  /** One request of the front end over the worker's socket (a call table's `callServer`, usually). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Writes a whole answer on a client connection the front end handed over (worker/handoff.ts), if it takes any. */
  serve?(job: unknown, head: string, socket: net.Socket): Promise<void>;
}

/**
 * Becomes the user before anything else (initgroups, setgid, setuid: Node's spawn({uid, gid}) would drop the
 * supplementary groups), then checks it: every id is the user's, and root cannot come back. Exits (70, 71) when
 * either fails; nothing of the user's is touched before this returns.
 */
export function becomeUser(id: Pick<WorkerIdentity, 'user' | 'uid' | 'gid' | 'umask'>): void {
  if (!Number.isSafeInteger(id.uid) || !Number.isSafeInteger(id.gid) || id.uid <= 0 || id.gid <= 0)
    process.exit(70);
  (process as unknown as { initgroups(user: string, gid: number): void }).initgroups(id.user, id.gid);
  process.setgid!(id.gid);
  process.setuid!(id.uid);
  if (process.getuid!() !== id.uid || process.geteuid!() !== id.uid || process.getegid!() !== id.gid)
    process.exit(70);
  let back = false;
  try {
    process.setuid!(0);
    back = true;
  } catch {
    /* expected: root is gone for good */
  }
  if (back) process.exit(71);
  process.umask(id.umask);
}

/**
 * Runs a worker that is already the user: its HTTP server takes the connections of the listening socket the
 * launcher hands over, client connections handed over for one answer each go to the service's `serve`, and the
 * process exits after `idleSeconds` without a request in flight, when the launcher goes, or on SIGTERM.
 */
export function hostWorker(service: WorkerService, idleSeconds: number): void {
  const idleMs = idleSeconds * 1000;
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idleTimer);
    if (active === 0) idleTimer = setTimeout(() => process.exit(0), idleMs);
  };
  const activity = (d: number) => {
    active += d;
    arm();
  };
  const server = http.createServer((req, res) => {
    activity(1);
    res.on('close', () => activity(-1));
    service.handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return res.destroy();
      sendJson(res, 500, { error: toWire(e) });
    });
  });
  // The launcher's listening socket: its connections are this HTTP server's (Node's pattern for handed servers).
  process.once('message', (_m, handle) => {
    (handle as net.Server).on('connection', (sock: net.Socket) => server.emit('connection', sock));
    process.send?.({ ready: true });
    arm();
    // Then client connections handed over for one answer each; the reply says when it is written.
    process.on('message', (m: Partial<ServeMessage>, sock?: net.Socket) => {
      if (m.op !== 'serve' || !sock || m.job === undefined || m.head === undefined) return;
      if (!service.serve) {
        sock.destroy();
        process.send?.({
          served: m.id,
          error: toWire(new AppError(CommonCodes.unavailable, ClusterKitText.workerTakesNoConnections)),
        });
        return;
      }
      activity(1);
      service
        .serve(m.job, m.head, sock)
        .then(
          () => process.send?.({ served: m.id }),
          (e: unknown) => process.send?.({ served: m.id, error: toWire(e) }),
        )
        .finally(() => activity(-1));
    });
  });
  // Only now may the socket come: a message that arrives before a listener exists is lost.
  process.send?.({ hello: true });
  process.on('disconnect', () => process.exit(0));
  // The launcher stops a worker with SIGTERM (restart, shutdown): an exit of our own, so that what Node does at exit
  // (a --cpu-prof profile of a bench run) still happens. The answers in flight are cut either way.
  process.on('SIGTERM', () => process.exit(0));
}
