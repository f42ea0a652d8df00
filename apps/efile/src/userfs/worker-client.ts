import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { isAppError } from '@hpc/server-kit';
import {
  UserWorkers,
  fromWire,
  gone,
  isGone,
  jsonLines,
  parseShells,
  type PathResolver,
  type WireError,
} from '@hpc/cluster-kit';
import { BLOCK, BlockWriter, takeBlock } from '../fs/block-pool';
import type { EfileConfig } from '../config';
import type {
  FsScope,
  PartialHandle,
  ReadHandle,
  ServeJob,
  TarResult,
  UserFs,
  WalkEntry,
  ZipHandle,
} from './types';
import { smallFilesBody } from './wire';

/**
 * A worker's V8 heap starts with room: `--initial-old-space-size=128` (MiB; the launcher passes its flags on to
 * the workers). A worker's heap is small (~10 MB of objects) while an upload streams ~1 GB/s of socket pieces
 * through it, each backed by external memory. V8 sizes its collection limits from the heap, so a small heap with that
 * much external memory had it marking the old generation almost without pause: measured, a worker spent 2-3x the
 * CPU of single mode's whole server on the same chunks (four GC threads busy), and the flag brought it to par
 * (docs/PERFORMANCE.md, unix mode, eighth session). It raises the heap's first limit, not what is allocated.
 */
const WORKER_HEAP_FLAG = '--initial-old-space-size=128';

/** The worker script: the .ts beside this file under tsx (tests, dev), the bundle in apps/efile/dist otherwise. */
function workerScript(): { script: string; execArgv: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // From src/userfs (tests, dev), from apps/efile/dist (the efile bundle), or through the package (the all-in-one).
  // From apps/all-in-one/dist (the all-in-one bundle: efile's own dist beside it), or where EFILE_WORKER_SCRIPT says.
  const candidates = [
    process.env.EFILE_WORKER_SCRIPT ?? '',
    path.resolve(here, '../../dist/efile-worker.js'),
    path.join(here, 'efile-worker.js'),
    path.resolve(here, '../../efile/dist/efile-worker.js'),
  ].filter(Boolean);
  try {
    const pkg = createRequire(import.meta.url).resolve('@hpc/efile/package.json');
    candidates.push(path.join(path.dirname(pkg), 'dist', 'efile-worker.js'));
  } catch {
    /* not resolvable from here */
  }
  // The bundle when built: a worker then starts in milliseconds (under tsx each new uid compiles every module anew).
  const bundle = candidates.find((c) => fs.existsSync(c));
  // A front end started with --cpu-prof (the benches' BENCH_PROFILE) has its launcher and workers profiled too: the
  // launcher passes its own flags on to the workers. Node refuses --cpu-prof in NODE_OPTIONS, so this is the way in.
  const profiling = process.execArgv.filter((a) => a.startsWith('--cpu-prof'));
  const flags = [WORKER_HEAP_FLAG, ...profiling];
  if (bundle) return { script: bundle, execArgv: flags };
  return { script: path.join(here, 'worker-main.ts'), execArgv: ['--import', 'tsx', ...flags] };
}

/**
 * Copies a worker's answer (a download or a zip) to the client the way single mode writes files: gathered into the
 * pooled 1 MiB blocks of `BlockWriter`, two writes in flight. Piped as it comes, every 64 KiB piece of the Unix
 * socket became a write on the client's socket with its own stream bookkeeping; the bench (`unix-bench.ts`) showed
 * the front end then spending several times the worker's CPU on the relay.
 */
export async function relay(res: IncomingMessage, out: Writable): Promise<void> {
  const w = new BlockWriter(out);
  let block = takeBlock();
  let used = 0;
  for await (const piece of res as AsyncIterable<Buffer>) {
    if (w.gone) {
      res.destroy();
      return;
    }
    let at = 0;
    while (at < piece.length) {
      const n = piece.copy(block, used, at);
      used += n;
      at += n;
      if (used === BLOCK) {
        await w.send(block, used);
        block = takeBlock();
        used = 0;
      }
    }
  }
  if (used > 0) await w.send(block, used);
  await w.end();
}

/** A request of small files (storeSmall) holds at most this many files and bytes; this many go to a user at once. */
const SMALL_FILES_PER_REQUEST = 64;
const SMALL_BYTES_PER_REQUEST = 8 * 1024 * 1024;
const SMALL_REQUESTS_AT_ONCE = 2;

/** A small file waiting to go to its user's worker with others. */
interface SmallJob {
  dir: string;
  name: string;
  data: Buffer[];
  size: number;
  sha256: string;
  ok: () => void;
  fail: (e: unknown) => void;
}
interface SmallQueue {
  scope: FsScope;
  overwrite: boolean;
  jobs: SmallJob[];
  sending: number;
}

/**
 * Unix mode (issue 10 §1): every operation of a user runs in that user's worker process. The cluster kit's
 * `UserWorkers` keeps one worker per active user (started through the root launcher, at most EFILE_MAX_WORKERS, the
 * least recently used idle one stopped at the limit, "1001 busy, retry" when none is idle); this side speaks efile's
 * calls to it. A worker that dies fails only the requests in flight (1001); the next request starts a new one.
 */
export class WorkerUserFs implements UserFs {
  private readonly workers: UserWorkers;
  /** Small files waiting for their user's worker, by scope (see storeSmall). */
  private readonly smallQueues = new Map<string, SmallQueue>();
  /** How many small files went to workers in how many requests (for tests and the bench). */
  readonly smallSent = { files: 0, requests: 0 };

  constructor(
    private readonly config: EfileConfig,
    readonly resolver: PathResolver,
  ) {
    const { script, execArgv } = workerScript();
    this.workers = new UserWorkers({
      name: 'efile',
      script,
      execArgv,
      runDir: config.EFILE_RUN_DIR || path.join(config.dataDir, 'run'),
      rules: { minUid: config.EFILE_MIN_UID, refusedShells: parseShells(config.EFILE_REFUSED_SHELLS) },
      idleSeconds: config.EFILE_WORKER_IDLE_S,
      maxWorkers: config.EFILE_MAX_WORKERS,
      workerEnv: { EFILE_WORKER_FS_ROOT: resolver.fsRoot },
    });
  }

  /** Cold starts measured (ms), for the bench. */
  get coldStarts(): number[] {
    return this.workers.coldStarts;
  }

  /** Starts the root launcher (must run while this process is still root: server.ts calls it before dropping). */
  startLauncher(socketOwnerUid = process.getuid?.() ?? 0): Promise<void> {
    return this.workers.startLauncher(socketOwnerUid);
  }

  /** The admin's "restart this user's worker": stops it; the next request starts a new one (with current groups). */
  restart(user: string): void {
    this.workers.restart(user);
  }

  /** Running workers (user → pid), for tests and the admin. */
  running(): Map<string, number> {
    return this.workers.running();
  }

  /**
   * One request to the scope's worker; `body` is JSON or a stream. Resolves with the response when its status is
   * 200, else throws the worker's AppError. `done` must be called when the response was consumed.
   */
  private request(
    s: FsScope,
    route: string,
    body: unknown,
    opts: { stream?: AsyncIterable<Buffer>; args?: unknown } = {},
  ): Promise<{ res: IncomingMessage; done: () => void }> {
    return this.workers.request(s.cun, route, { json: body, ...opts });
  }

  /**
   * Hands the client's connection to the scope's worker for this one answer (the kit's handoff.ts) and resolves
   * when the worker has written it: `handed` false when this response cannot be handed over (the caller relays it
   * then), `error` what the worker reported (the client then saw the connection cut).
   */
  private async handOff(
    s: FsScope,
    out: Writable,
    job: ServeJob,
  ): Promise<{ handed: boolean; error?: Error }> {
    if (!this.config.EFILE_WORKER_HANDOFF || !s.cun) return { handed: false };
    return this.workers.handOff(s.cun, out, job);
  }

  /** Forgets a worker whose socket failed: the next request starts a new one. */
  private forget(user: string) {
    this.workers.forget(user);
  }

  private async json<T>(
    s: FsScope,
    route: string,
    body: unknown,
    opts?: { stream?: AsyncIterable<Buffer>; args?: unknown },
  ): Promise<T> {
    const { res, done } = await this.request(s, route, body, opts);
    try {
      const parts: Buffer[] = [];
      for await (const c of res as AsyncIterable<Buffer>) parts.push(c);
      return (JSON.parse(Buffer.concat(parts).toString('utf8')) as { result: T }).result;
    } catch (e) {
      if (isAppError(e)) throw e;
      this.forget(s.cun);
      throw gone();
    } finally {
      done();
    }
  }

  /**
   * A plain call; when the worker died before answering (killed, idle exit racing the request) the call is sent
   * once more to a new worker. Plain calls are safe to repeat: each re-resolves its paths and refuses to replace
   * (a mkdir that did happen answers 1023 the second time, never a second copy).
   */
  private async call<T>(s: FsScope, method: string, ...args: unknown[]): Promise<T> {
    const body = { scope: { cun: s.cun, roots: s.roots }, args };
    try {
      return await this.json<T>(s, `/call/${method}`, body);
    } catch (e) {
      if (!isGone(e)) throw e;
      this.forget(s.cun);
      return this.json<T>(s, `/call/${method}`, body);
    }
  }

  resolve: UserFs['resolve'] = (s, p, o) => this.call(s, 'resolve', p, o);
  list: UserFs['list'] = (s, p, o) => this.call(s, 'list', p, o);
  mkdir: UserFs['mkdir'] = (s, p) => this.call(s, 'mkdir', p);
  touch: UserFs['touch'] = (s, p) => this.call(s, 'touch', p);
  remove: UserFs['remove'] = (s, p, r) => this.call(s, 'remove', p, r);
  rename: UserFs['rename'] = (s, p, n) => this.call(s, 'rename', p, n);
  exist: UserFs['exist'] = (s, p) => this.call(s, 'exist', p);
  tree: UserFs['tree'] = (s, p) => this.call(s, 'tree', p);
  homeUsage: UserFs['homeUsage'] = (s, h) => this.call(s, 'homeUsage', h);
  access: UserFs['access'] = (s, p, a) => this.call(s, 'access', p, a);
  writeFile: UserFs['writeFile'] = (s, p, d) => this.call(s, 'writeFile', p, d);
  ensureDir: UserFs['ensureDir'] = (s, p) => this.call(s, 'ensureDir', p);
  finalizePartial: UserFs['finalizePartial'] = (s, a) => this.call(s, 'finalizePartial', a);
  unlink: UserFs['unlink'] = (s, h) => (s.cun ? this.call(s, 'unlink', h) : Promise.resolve());
  identify: UserFs['identify'] = (s, p) => this.call(s, 'identify', p);
  preparePartial: UserFs['preparePartial'] = (s, h, n) => this.call(s, 'preparePartial', h, n);
  fileSize: UserFs['fileSize'] = (s, h) => this.call(s, 'fileSize', h);
  sha256: UserFs['sha256'] = (s, h) => this.call(s, 'sha256', h);

  /**
   * Small files travel to the worker together: the calls that arrive while a request of them is under way wait and
   * go as the next one (at most 64 files or 8 MiB, two requests at once per user). A batch's 64 files at once were
   * 64 requests, each a round trip through both processes' HTTP for ~10 KB; in the worker they are stored at once as
   * before (it holds the folder open across them). Each call gets its own answer; a worker that dies fails the calls
   * of its requests (1001), as a single one would.
   */
  storeSmall(s: FsScope, dir: string, name: string, data: Buffer[], sha256: string, overwrite: boolean) {
    return new Promise<void>((ok, fail) => {
      const key = JSON.stringify([s.cun, s.roots, overwrite]);
      let q = this.smallQueues.get(key);
      if (!q) {
        q = { scope: s, overwrite, jobs: [], sending: 0 };
        this.smallQueues.set(key, q);
      }
      const size = data.reduce((a, d) => a + d.length, 0);
      q.jobs.push({ dir, name, data, size, sha256, ok, fail });
      this.sendSmall(key, q);
    });
  }

  private sendSmall(key: string, q: SmallQueue) {
    while (q.sending < SMALL_REQUESTS_AT_ONCE && q.jobs.length > 0) {
      let bytes = 0;
      let n = 0;
      while (
        n < q.jobs.length &&
        n < SMALL_FILES_PER_REQUEST &&
        (n === 0 || bytes + q.jobs[n]!.size <= SMALL_BYTES_PER_REQUEST)
      )
        bytes += q.jobs[n++]!.size;
      const jobs = q.jobs.splice(0, n);
      this.smallSent.files += n;
      this.smallSent.requests++;
      q.sending++;
      void this.storeSmallFiles(q.scope, q.overwrite, jobs).finally(() => {
        q.sending--;
        if (q.sending === 0 && q.jobs.length === 0) this.smallQueues.delete(key);
        else this.sendSmall(key, q);
      });
    }
  }

  private async storeSmallFiles(s: FsScope, overwrite: boolean, jobs: SmallJob[]) {
    try {
      const head = {
        scope: { cun: s.cun, roots: s.roots },
        overwrite,
        files: jobs.map((j) => ({ dir: j.dir, name: j.name, sha256: j.sha256, size: j.size })),
      };
      const body = smallFilesBody(
        head,
        jobs.map((j) => j.data),
      );
      const results = await this.json<(WireError | null)[]>(s, '/storeSmall', null, {
        stream: (async function* () {
          yield* body;
        })(),
      });
      jobs.forEach((j, i) => {
        const e = results[i];
        if (e) j.fail(fromWire(e));
        else j.ok();
      });
    } catch (e) {
      for (const j of jobs) j.fail(e);
    }
  }

  /** The worker's walk as JSON lines, read as the caller takes them. */
  async *walk(s: FsScope, host: string, base: string): AsyncGenerator<WalkEntry> {
    const { res, done } = await this.request(s, '/walk', { scope: s, host, base });
    try {
      let last: { done?: boolean; error?: WireError } | null = null;
      for await (const line of jsonLines<{ e?: WalkEntry; done?: boolean; error?: WireError }>(res)) {
        if (line.e) yield line.e;
        else last = line;
      }
      if (last?.error) throw fromWire(last.error);
      if (!last?.done) throw gone();
    } catch (e) {
      if (isAppError(e)) throw e;
      throw gone();
    } finally {
      res.destroy();
      done();
    }
  }

  extractTar(s: FsScope, base: string, body: AsyncIterable<Buffer>, overwrite: boolean) {
    return this.json<TarResult>(s, '/extractTar', null, {
      stream: body,
      args: { scope: s, base, overwrite },
    });
  }

  async readFile(s: FsScope, host: string, max: number): Promise<Buffer> {
    const { res, done } = await this.request(s, '/readFile', { scope: s, host, max });
    try {
      const parts: Buffer[] = [];
      for await (const c of res as AsyncIterable<Buffer>) parts.push(c);
      return Buffer.concat(parts);
    } finally {
      done();
    }
  }

  async openRead(s: FsScope, host: string): Promise<ReadHandle> {
    const st = await this.json<{ size: number; mtimeMs: number }>(s, '/stat', { scope: s, host });
    return {
      ...st,
      pipeTo: async (out: Writable, start: number, end: number) => {
        const job: ServeJob = { kind: 'read', scope: s, host, start, end, ...st };
        if ((await this.handOff(s, out, job)).handed) return;
        const { res, done } = await this.request(s, '/read', { scope: s, host, start, end, ...st }).catch(
          (e: unknown) => {
            out.destroy();
            throw e;
          },
        );
        try {
          await relay(res, out);
        } catch {
          out.destroy();
        } finally {
          done();
        }
      },
      close: async () => undefined,
    };
  }

  async openZip(s: FsScope, items: { host: string; name: string }[], fileLimit: number): Promise<ZipHandle> {
    const z = await this.json<{ id: string; size: number; fileCount: number; totalSize: number }>(
      s,
      '/zip/open',
      {
        scope: s,
        items,
        fileLimit,
      },
    );
    let streamed = false;
    return {
      size: z.size,
      fileCount: z.fileCount,
      totalSize: z.totalSize,
      writeTo: async (out: Writable) => {
        streamed = true;
        const handed = await this.handOff(s, out, { kind: 'zip', id: z.id });
        if (handed.error) throw handed.error;
        if (handed.handed) return;
        const { res, done } = await this.request(s, `/zip/stream?id=${z.id}`, {});
        try {
          await relay(res, out);
        } catch (e) {
          out.destroy();
          throw e;
        } finally {
          done();
        }
      },
      close: async () => {
        if (!streamed) await this.json(s, `/zip/close?id=${z.id}`, {}).catch(() => undefined);
      },
    };
  }

  async openPartial(s: FsScope, host: string): Promise<PartialHandle> {
    const id = await this.json<string>(s, '/partial/open', { scope: s, host });
    return {
      write: (data, offset) => this.json(s, '/partial/write', null, { stream: data, args: { id, offset } }),
      sync: () => this.json(s, `/partial/sync?id=${id}`, {}),
      close: () =>
        this.json(s, `/partial/close?id=${id}`, {}).then(
          () => undefined,
          () => undefined,
        ),
    };
  }

  writeStream(s: FsScope, p: string, body: AsyncIterable<Buffer>, overwrite: boolean): Promise<number> {
    return this.json(s, '/writeStream', null, { stream: body, args: { scope: s, path: p, overwrite } });
  }

  async transfer(
    s: FsScope,
    args: Parameters<UserFs['transfer']>[1],
    report: Parameters<UserFs['transfer']>[2],
    signal: AbortSignal,
  ): Promise<void> {
    const { res, done } = await this.request(s, '/transfer', { scope: s, args });
    const stop = () => res.destroy();
    signal.addEventListener('abort', stop);
    try {
      let last: { done?: boolean; error?: WireError } | null = null;
      type Line = { progress?: Parameters<typeof report>[0]; done?: boolean; error?: WireError };
      for await (const line of jsonLines<Line>(res)) {
        if (line.progress) report(line.progress);
        else last = line;
      }
      signal.throwIfAborted();
      if (last?.error) throw fromWire(last.error);
      if (!last?.done) throw gone();
    } catch (e) {
      signal.throwIfAborted();
      if (isAppError(e)) throw e;
      throw gone();
    } finally {
      signal.removeEventListener('abort', stop);
      done();
    }
  }

  async close(): Promise<void> {
    await this.workers.close();
  }
}
