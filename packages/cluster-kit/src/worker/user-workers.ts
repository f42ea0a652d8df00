import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { checkAccount, type AccountRules } from '../accounts/accounts';
import { ClusterKitText } from '../messages';
import type { CallTransport, HandOffResult, RequestOptions, WorkerResponse } from '../wire/call-table';
import { encodeArgsHeader, ARGS_HEADER, fromWire, gone, wireText, type WireError } from '../wire/wire-format';
import { handOffTarget, type ServeMessage } from './handoff';
import { LAUNCHER_ENV, type LauncherRequest, type LauncherSettings } from './launcher';

export interface UserWorkersOptions {
  /** The service's worker entry (worker-entry.ts) and the node flags to run it with (`--import tsx` for a .ts). */
  script: string;
  execArgv: string[];
  /** The service's own run dir (sockets and pid files under `workers/`); never shared between services. */
  runDir: string;
  rules: AccountRules;
  /** A worker exits after this many seconds without a request. */
  idleSeconds: number;
  /** Workers at once; at the limit the least recently used idle one stops, else "1001 busy, retry". */
  maxWorkers: number;
  /** The service's settings its workers read from their environment (the only variables they get besides PATH, locale, TZ, Node's). */
  workerEnv?: Record<string, string>;
  /** For messages: "the <name> launcher exited". */
  name: string;
}

interface Worker {
  user: string;
  socket: string;
  pid: number;
  agent: http.Agent;
  inFlight: number;
  lastUsed: number;
}

type LauncherReply = { id?: number; socket?: string; pid?: number; error?: WireError; exit?: string } & {
  launcherReady?: boolean;
};

/**
 * The front end's side of the user workers (issue 10 §1, shared by the per-cluster services since issue 23): it starts
 * the root launcher, keeps one worker per active user (started through the launcher, at most `maxWorkers`), and
 * sends requests to a user's worker over that worker's 0600 Unix socket. A worker that dies fails only the requests
 * in flight ("1001", retry) and is forgotten; the next request starts a new one. It is a `CallTransport`: a call
 * table's `callClient` runs on it.
 *
 * The user a request runs as is the one the service names (from a verified token); the launcher re-checks that
 * account itself, and a worker serves its own user only.
 */
export class UserWorkers implements CallTransport {
  private launcher: ChildProcess | null = null;
  private launcherReady: Promise<void> | null = null;
  private readonly workers = new Map<string, Worker>();
  private readonly starting = new Map<string, Promise<Worker>>();
  private readonly pending = new Map<number, (m: LauncherReply) => void>();
  private nextId = 1;
  /** Cold starts measured (ms), for the bench. */
  readonly coldStarts: number[] = [];

  constructor(private readonly opts: UserWorkersOptions) {}

  /** Starts the root launcher (must run while this process is still root: call it before dropping to the service user). */
  startLauncher(socketOwnerUid = process.getuid?.() ?? 0): Promise<void> {
    if (this.launcherReady) return this.launcherReady;
    fs.mkdirSync(this.opts.runDir, { recursive: true, mode: 0o711 });
    const settings: LauncherSettings = {
      runDir: this.opts.runDir,
      rules: this.opts.rules,
      socketOwnerUid,
      idleSeconds: this.opts.idleSeconds,
      workerEnv: this.opts.workerEnv ?? {},
    };
    const child = fork(this.opts.script, ['launcher'], {
      execArgv: this.opts.execArgv,
      env: { ...process.env, [LAUNCHER_ENV]: JSON.stringify(settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.launcher = child;
    this.launcherReady = new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the ${this.opts.name} launcher exited (${code})`)));
      child.on('message', (m: LauncherReply) => {
        if (m.launcherReady) resolve();
        else if (m.exit) {
          const w = this.workers.get(m.exit);
          if (w && w.pid === m.pid) this.forget(m.exit, w);
        } else if (m.id !== undefined) {
          this.pending.get(m.id)?.(m);
          this.pending.delete(m.id);
        }
      });
    });
    return this.launcherReady;
  }

  /** The admin's "restart this user's worker": stops it; the next request starts a new one (with current groups). */
  restart(user: string): void {
    this.send({ op: 'stop', id: 0, user });
  }

  /** Running workers (user → pid), for tests and the admin. */
  running(): Map<string, number> {
    return new Map([...this.workers].map(([u, w]) => [u, w.pid]));
  }

  private send(m: LauncherRequest) {
    this.launcher?.send(m);
  }

  private async worker(user: string): Promise<Worker> {
    const w = this.workers.get(user);
    if (w) return w;
    const s = this.starting.get(user);
    if (s) return s;
    const p = this.start(user).finally(() => this.starting.delete(user));
    this.starting.set(user, p);
    return p;
  }

  private async start(user: string): Promise<Worker> {
    // The front end checks first (a clear answer without a round trip); the launcher checks again itself.
    checkAccount(user, this.opts.rules);
    if (this.workers.size + this.starting.size - 1 >= this.opts.maxWorkers) {
      const idle = [...this.workers.values()]
        .filter((x) => x.inFlight === 0)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!idle) throw new AppError(CommonCodes.unavailable, ClusterKitText.workersBusy);
      this.forget(idle.user, idle);
      this.restart(idle.user);
    }
    await this.startLauncher();
    const t0 = performance.now();
    const id = this.nextId++;
    const m = await new Promise<LauncherReply>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({
          error: { code: CommonCodes.unavailable, ...wireText(ClusterKitText.workerStartTimeout) },
        });
      }, 30_000);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.send({ op: 'start', id, user });
    });
    if (m.error) throw fromWire(m.error);
    this.coldStarts.push(performance.now() - t0);
    const w: Worker = {
      user,
      socket: m.socket!,
      pid: m.pid!,
      agent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
      inFlight: 0,
      lastUsed: Date.now(),
    };
    this.workers.set(user, w);
    return w;
  }

  /**
   * One request to the worker of `user`: a JSON body, or a byte body with its arguments in the `x-args` header.
   * Resolves with the response when its status is 200, else throws the worker's AppError; `done` must be called
   * when the response was consumed.
   */
  async request(user: string, route: string, opts: RequestOptions = {}): Promise<WorkerResponse> {
    if (!user) throw new AppError(FileCodes.permissionDenied, ClusterKitText.noClusterUser);
    const w = await this.worker(user);
    w.inFlight++;
    w.lastUsed = Date.now();
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      w.inFlight--;
      w.lastUsed = Date.now();
    };
    // The client's body failing (an upload cut by its client, or dropped as too slow) ends this one call, not the
    // worker: taken for the worker's death it cut every other transfer of the user and left the worker running,
    // uncounted (found from outside, 2026-12-01). Set before the pipeline sees the error (listeners run in order).
    let clientFailed = false;
    try {
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const headers: Record<string, string> = {};
        if (opts.args !== undefined) headers[ARGS_HEADER] = encodeArgsHeader(opts.args);
        const req = http.request(
          { socketPath: w.socket, path: route, method: 'POST', agent: w.agent, headers },
          resolve,
        );
        req.on('error', reject);
        if (opts.stream) {
          const body = opts.stream;
          if (body instanceof Readable) {
            const failed = () => (clientFailed = true);
            body.once('error', failed);
            body.once('aborted', failed);
            body.once('close', () => {
              if (!body.readableEnded) failed();
            });
          }
          pipeline(body, req).catch(reject);
        } else req.end(JSON.stringify(opts.json ?? {}));
      });
      if (res.statusCode !== 200) {
        const parts: Buffer[] = [];
        for await (const c of res as AsyncIterable<Buffer>) parts.push(c);
        done();
        const j = JSON.parse(Buffer.concat(parts).toString('utf8')) as { error: WireError };
        throw fromWire(j.error);
      }
      res.once('close', done);
      return { res, done };
    } catch (e) {
      done();
      if (isAppError(e)) throw e;
      if (clientFailed) throw new AppError(CommonCodes.invalidInput, ClusterKitText.bodyCut);
      // The socket failed: the worker died (or is dying). Forget it, and tell the launcher to stop it should it
      // still run; the next request starts a new one.
      this.forget(user, w);
      this.restart(user);
      throw gone();
    }
  }

  /**
   * Hands the client's connection under `out` to the worker of `user` for this one answer (handoff.ts) and resolves
   * when the worker has written it: `handed` false when this response cannot be handed over (the caller relays it
   * then), `error` what the worker reported (the client then saw the connection cut).
   */
  async handOff(user: string, out: Writable, job: unknown): Promise<HandOffResult> {
    const target = handOffTarget(out);
    if (!target || !user) return { handed: false };
    const w = await this.worker(user);
    w.inFlight++;
    w.lastUsed = Date.now();
    const id = this.nextId++;
    const answer = new Promise<LauncherReply>((resolve) => this.pending.set(id, resolve));
    try {
      const msg: ServeMessage = { op: 'serve', id, user, job, head: target.head };
      await new Promise<void>((resolve, reject) =>
        this.launcher!.send(msg, target.socket, { keepOpen: true }, (err) => (err ? reject(err) : resolve())),
      );
    } catch {
      this.pending.delete(id);
      target.socket.destroy();
      w.inFlight--;
      return { handed: true, error: gone() };
    }
    // The launcher holds its own descriptor of the connection now: let go of ours without ending the connection.
    target.socket.destroy();
    const m = await answer;
    w.inFlight--;
    w.lastUsed = Date.now();
    return { handed: true, error: m.error ? fromWire(m.error) : undefined };
  }

  /** Forgets a worker whose socket failed (or that exited): the next request starts a new one. */
  forget(user: string, w?: Worker): void {
    const cur = this.workers.get(user);
    if (cur && (!w || cur === w)) {
      this.workers.delete(user);
      cur.agent.destroy();
    }
  }

  /** Stops the launcher, and with it every worker. */
  async close(): Promise<void> {
    for (const w of this.workers.values()) w.agent.destroy();
    this.workers.clear();
    if (this.launcher && this.launcher.exitCode === null) {
      const exited = new Promise((r) => this.launcher!.once('exit', r));
      this.launcher.disconnect();
      await exited;
    }
  }
}
