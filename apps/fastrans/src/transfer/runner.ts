import crypto from 'node:crypto';
import path from 'node:path';
import { lstatSync } from 'node:fs';
import fs from 'node:fs/promises';
import {
  CommonCodes,
  FastransCodes,
  FileCodes,
  FastransTaskState as S,
  TarWriter,
  tarFiles,
  type FastransTaskSummary,
} from '@hpc/contracts';
import * as E from '../engine/task';
import { SpeedMeter } from '../engine/speed';
import type { HistoryStore, ListWriter } from '../store/history';
import { fileThread, type WriteJob } from './file-thread';
import { NetworkError } from './http';
import * as L from './local';
import { RemoteError, type Remote } from './remote';
import { FastransText } from '../messages';

/** What the page sees of a task (the `task` event and the task list): the local protocol's own type. */
export type TaskSummary = FastransTaskSummary;

interface Run {
  t: E.TaskModel;
  meter: SpeedMeter;
  flying: number;
  timer: NodeJS.Timeout | null;
  savedAt: number;
  emittedAt: number;
  lastState: number;
  /** SHA-256 of local upload files, computed once per file (servers without range checks only). */
  sha: Map<number, Promise<string>>;
  /** SHA-256 of each range sent, by file: finalize's hash list, without reading the file again. */
  rangeSha: Map<number, string[]>;
  /** Whether the servers check each range's SHA-256 and take the hash list at finalize (their last answer). */
  rangeChecks: boolean;
  /**
   * Download ranges that arrived with the server's digest and matched it, by file, since this process began the
   * task: a file whose every range is here is verified, with no whole-file digest after its last byte.
   */
  checkedRanges: Map<number, Set<number>>;
  /**
   * Whether the task asks efile which small files are the same on both sides before a batch (`same`), from its
   * start without overwrite: an upload until a batch of which efile had none, a download (which asks only about
   * files already here with their size, and not at all when its items were not here when it began) until efile
   * cannot answer.
   */
  askSame: boolean;
  /** Whether the server was asked (once) what it has, since this process began the task. */
  recovered: boolean;
  retryTimer: NodeJS.Timeout | null;
  overwrite: boolean;
  /** A read of the next part of the task's list is under way (the window is fed from the list file). */
  feeding: boolean;
  /** The list being written while the task runs (`t.listing`): its whole lines so far (bytes, files), its stop. */
  list: { written: number; files: number; abort: AbortController } | null;
  /** The task's saves, one after another (see `save`): the last one asked for, and one waiting to start. */
  saving: Promise<void>;
  saveWaiting: Promise<void> | null;
}

const MANIFEST = '.fastrans-manifest.json';
type BatchFailure = { file: number; error: string; permanent?: boolean };
const UNREACHABLE_AFTER = 12;
/** Files per part of a list being written: the window is fed, and the first batches sent, after the first part. */
const LIST_FLUSH = 500;
/** A list's writing stopped on purpose (the task was cancelled). */
class ListStopped extends Error {}
/** Refusals of a range that another send can cure: bytes that differ from their SHA-256, a short body, a busy range. */
const RANGE_AGAIN = new Set<string>([
  CommonCodes.verificationFailed,
  CommonCodes.interrupted,
  CommonCodes.unavailable,
]);
const join = (dir: string, rel: string) => (dir === '/' ? '' : dir.replace(/\/$/, '')) + '/' + rel;

export interface RunnerOptions {
  store: HistoryStore;
  limits?: E.EngineLimits;
  emit(summary: TaskSummary): void;
  log(msg: string): void;
  now?: () => number;
}

/**
 * Runs the engine's decisions: reads and writes local files, calls efile, feeds every outcome back to the engine,
 * saves the task now and then (so a killed client resumes), and reports progress. Several tasks run at once; each
 * task keeps several files and ranges in flight within the engine's limits.
 */
export class Runner {
  private readonly runs = new Map<string, Run>();
  /** The `waitFor` calls of each task, woken when its state changes. */
  private readonly waiters = new Map<string, Set<() => void>>();
  private remote: Remote | null = null;
  private readonly limits: E.EngineLimits;
  private readonly now: () => number;
  /** The upload ranges' buffers, one per stream that may be in flight, reused across ranges, files and tasks. */
  private readonly buffers: L.RangeBuffers;

  constructor(private readonly opts: RunnerOptions) {
    this.limits = { ...E.DEFAULT_LIMITS, ...opts.limits };
    this.now = opts.now ?? Date.now;
    this.buffers = new L.RangeBuffers(this.limits.rangeSize, this.limits.streamsTotal);
  }

  /** Loads the history: finished tasks are listed, unfinished ones resume once the client is logged in. */
  async load(): Promise<void> {
    for (const t of await this.opts.store.load()) {
      const run = this.track(t, false);
      if (!E.isFinished(t) && t.state !== S.stopped) {
        E.recover(t, null, this.now());
        t.state = S.waitLoginInfo;
      }
      run.lastState = t.state;
    }
  }

  private track(t: E.TaskModel, overwrite: boolean): Run {
    const replace = overwrite || (t as { overwrite?: boolean }).overwrite === true;
    const run: Run = {
      t,
      meter: new SpeedMeter(),
      flying: 0,
      timer: null,
      savedAt: 0,
      emittedAt: 0,
      lastState: t.state,
      sha: new Map(),
      rangeSha: new Map(),
      rangeChecks: false,
      checkedRanges: new Map(),
      recovered: false,
      retryTimer: null,
      feeding: false,
      list: null,
      saving: Promise.resolve(),
      saveWaiting: null,
      overwrite: replace,
      askSame: !replace,
    };
    this.runs.set(t.id, run);
    return run;
  }

  /** A new login (or logout, null): waiting tasks resume, asking the server once what it has. */
  setRemote(remote: Remote | null): void {
    this.remote = remote;
    if (!remote) return;
    for (const run of this.runs.values()) {
      if ([S.waitLoginInfo, S.authFailed, S.proxyClosed].includes(run.t.state as never)) {
        run.t.state = S.recover;
        void this.resumeRun(run);
      }
    }
  }

  private async resumeRun(run: Run): Promise<void> {
    const t = run.t;
    this.continueList(run);
    try {
      if (t.kind === 'upload' && this.remote && !run.recovered) {
        t.state = S.connectingProxy;
        this.changed(run);
        // Only the window can have been sent: files further down the list are still new to the server.
        const pending = t.files.filter((f) => f.state !== 'done' && f.state !== 'failed');
        const status = new Map<string, { id: string; done: boolean; ranges: number[] }>();
        for (let k = 0; k < pending.length; k += 100_000) {
          const part = pending.slice(k, k + 100_000);
          const answer = await this.remote.status(part.map((f) => this.ref(t, f)));
          answer.forEach((s, j) => {
            const f = part[j]!;
            run.rangeChecks = s.rangeChecks === true;
            if (s.done || s.rangeSize === f.rangeSize)
              status.set(f.rel, { id: s.id, done: s.done, ranges: s.ranges });
          });
        }
        for (const f of t.files)
          if (f.state === 'done') status.set(f.rel, { id: f.remoteId ?? '', done: true, ranges: [] });
        E.recover(t, status, this.now());
        run.recovered = true;
      } else {
        E.recover(t, null, this.now());
      }
      E.start(t, !!this.remote, this.now());
    } catch (e) {
      if (this.fail(run, e) === 'net') this.unreachable(run);
      else if (!(e instanceof RemoteError && e.auth)) {
        this.endWith(run.t, this.errText(e));
      }
    }
    this.changed(run);
    this.pump(run);
  }

  private ref(t: E.TaskModel, f: E.FileJob) {
    return {
      path: join(t.remote, f.rel),
      size: f.size,
      identifier: crypto
        .createHash('sha256')
        .update(`${t.id}\0${f.rel}\0${f.size}`)
        .digest('hex')
        .slice(0, 32),
    };
  }

  private newId() {
    return crypto.randomBytes(8).toString('hex');
  }

  /**
   * Creates a task and writes its list file from `entries` (streamed: the list never sits in memory). The transfer
   * begins with the list's first part (`LIST_FLUSH` files): the walk of a cold folder of 10,000 files took 200–300 ms,
   * a sixth of the whole download, with nothing sent meanwhile. A failure before that first part is the caller's (the
   * task is forgotten, as if never made); a later one ends the task (see `listFailed`).
   */
  private async createFromList(
    input: { kind: E.TaskKind; local: string; remote: string; overwrite: boolean },
    listing: NonNullable<E.TaskModel['listing']>,
  ): Promise<TaskSummary> {
    const id = this.newId();
    const t = E.createTask(
      { id, ...input, clusterId: '', filesTotal: 0, bytesTotal: 0 },
      this.now(),
      this.limits,
    );
    (t as { overwrite?: boolean }).overwrite = input.overwrite;
    t.listing = listing;
    const run = this.track(t, input.overwrite);
    run.recovered = true; // a new task: nothing to ask the server
    // A download whose items are not here yet (a first fetch) has nothing to compare: no lstat of each file it
    // fetches. Resumed tasks, and items already here, ask (sameHere).
    if (input.kind === 'download' && 'paths' in listing)
      run.askSame &&= listing.paths.some(
        (p) =>
          lstatSync(path.join(input.local, path.posix.basename(p)), { throwIfNoEntry: false }) !== undefined,
      );
    E.start(t, !!this.remote, this.now());
    let begun = false;
    await new Promise<void>((resolve, reject) => {
      this.writeList(run, true, () => ((begun = true), resolve())).catch((e: unknown) => {
        if (begun) this.listFailed(run, e);
        else reject(e instanceof Error ? e : new Error(String(e)));
      });
    }).catch(async (e: unknown) => {
      this.runs.delete(id);
      await this.opts.store.remove(id).catch(() => undefined);
      throw e;
    });
    await this.save(run);
    this.changed(run);
    this.pump(run);
    return this.summary(run);
  }

  /**
   * Writes (or, after a stop in the middle, continues) the task's list from what `t.listing` names, feeding the
   * window as each part is on disk; `begun` is told after the first part. Names already in a continued list are
   * skipped, so no file is listed twice.
   */
  private async writeList(run: Run, fresh = false, begun: () => void = () => undefined): Promise<void> {
    const { t } = run;
    const source = t.listing;
    if (!source || run.list) return begun();
    const abort = new AbortController();
    run.list = { written: 0, files: 0, abort };
    let list: ListWriter | undefined;
    try {
      const from = fresh ? undefined : await this.opts.store.listEnd(t.id);
      list = await this.opts.store.listWriter(t.id, LIST_FLUSH, from);
      const w = list;
      Object.assign(run.list, { written: w.written, files: w.files });
      let first = true;
      w.onFlush = () => {
        t.filesTotal = w.files;
        t.bytesTotal = w.total;
        if (run.list) Object.assign(run.list, { written: w.written, files: w.files });
        if (first) {
          first = false;
          begun();
        } else this.changed(run);
        this.pump(run);
      };
      await this.entriesOf(t, source, async (e) => {
        if (abort.signal.aborted) throw new ListStopped();
        if (!from?.rels.has(e.rel)) await w.add(e);
      });
      await w.close();
      list = undefined;
      if (abort.signal.aborted) throw new ListStopped();
      delete t.listing;
      run.list = null;
      if (this.closed) return;
      await this.save(run);
      this.changed(run);
      this.pump(run);
    } catch (e) {
      if (list) {
        // Closed without a word: the lines written stay for a continuation, and `begun` is not told of a list
        // that failed.
        list.onFlush = null;
        await list.close().catch(() => undefined);
      }
      run.list = null;
      throw e;
    }
  }

  /** A list whose writing stopped (the client stopped, a server was lost, a retry) is continued from where it is. */
  private continueList(run: Run) {
    if (run.t.listing && !run.list && this.remote)
      this.writeList(run).catch((e: unknown) => this.listFailed(run, e));
  }

  /** The files of what a task lists: a local walk of the picked item, or the remote manifest of the picked paths. */
  private async entriesOf(
    t: E.TaskModel,
    source: NonNullable<E.TaskModel['listing']>,
    add: (e: { rel: string; size: number }) => Promise<void>,
  ) {
    if ('picked' in source) {
      for await (const f of L.walkLocal(source.picked)) await add(f);
      return;
    }
    if (!this.remote) throw new RemoteError(FastransCodes.notLoggedIn, FastransText.logInFirst);
    let realBase: string | undefined;
    // Folders are made as they come (empty ones included), before any file of theirs is listed.
    await this.remote.manifest(source.paths, async (e) => {
      L.safeRel(e.rel);
      if (e.dir) realBase = await L.ensureRealDir(t.local, e.rel, realBase);
      else await add({ rel: e.rel, size: e.size });
    });
  }

  /**
   * The list could not be written to its end after the transfer began: a lost server is waited out (the list is
   * continued when it answers: `resumeRun`); anything else (a refusal, a local folder that cannot be read or made)
   * ends the task with the reason. A stop asked for (`cancel`) or the client's own stop changes nothing.
   */
  private listFailed(run: Run, e: unknown) {
    if (e instanceof ListStopped || this.closed) return;
    const t = run.t;
    // Only the server's trouble is waited out; a local one (a folder that turned into a link, no room) is final.
    if (t.kind === 'download' && (e instanceof NetworkError || e instanceof RemoteError)) {
      const kind = this.fail(run, e);
      if (kind === 'net' && t.state !== S.proxyClosed) {
        // Servers still answer the transfer's other calls: the list is continued shortly, from where it stopped.
        setTimeout(() => E.isRunning(t) && !this.closed && this.continueList(run), 3_000).unref();
      }
      if (kind !== 'refused') {
        this.changed(run);
        return;
      }
    }
    this.endWith(t, `the list of files could not be made: ${this.errText(e)}`);
    this.changed(run);
  }

  /** Uploads a picked local file or folder into the remote folder. */
  async addUpload(picked: string, remoteDir: string, overwrite = false): Promise<TaskSummary> {
    const from = path.resolve(picked);
    return this.createFromList(
      { kind: 'upload', local: path.dirname(from), remote: remoteDir, overwrite },
      { picked: from },
    );
  }

  /** Downloads remote items (all under one remote folder) into a local folder. */
  async addDownload(remotePaths: string[], localDir: string, overwrite = false): Promise<TaskSummary> {
    if (!this.remote) throw new RemoteError(FastransCodes.notLoggedIn, FastransText.logInFirst);
    const parent = path.posix.dirname(remotePaths[0]!);
    if (remotePaths.some((p) => path.posix.dirname(p) !== parent))
      throw new RemoteError(FastransCodes.badRequest, FastransText.oneFolder);
    return this.createFromList(
      { kind: 'download', local: path.resolve(localDir), remote: parent, overwrite },
      { paths: remotePaths },
    );
  }

  private closed = false;

  /** Takes the next part of the list into the engine's window, then goes on. */
  private async feed(run: Run) {
    const t = run.t;
    run.feeding = true;
    try {
      const want = E.room(t, this.limits);
      // A list still being written is read as far as its writer has written whole lines, and has not ended there.
      const writing = run.list !== null || t.listing !== undefined;
      const part = await this.opts.store.readList(
        t.id,
        t.listPos,
        want,
        writing ? run.list?.written : undefined,
      );
      // Nothing read yet not at the end: the list ends inside a line (a damaged file), never to be read further.
      if (part.entries.length === 0 && !part.ended && !writing)
        throw new Error('the list ends inside an entry');
      E.feed(t, part.entries, part.pos, part.ended && !writing, this.limits);
      // Saved before any of these files is sent: a killed client must find every file it may have sent in its
      // history, so that the one status call after a restart covers them (a file fed again would be sent again).
      if (part.entries.length) await this.save(run);
      run.savedAt = this.now();
    } catch (e) {
      this.endWith(t, `the task's file list cannot be read: ${(e as Error).message}`);
    } finally {
      run.feeding = false;
    }
    this.changed(run);
    this.pump(run);
  }

  private pump(run: Run): void {
    if (!this.remote || this.closed) return;
    // Refill the window once a quarter of it is free (reads of the list in large parts, not per file).
    if (
      !run.feeding &&
      E.isRunning(run.t) &&
      E.room(run.t, this.limits) >= Math.max(1, this.limits.window >> 2) &&
      this.listHasMore(run)
    )
      void this.feed(run);
    const work = E.nextWork(run.t, this.now(), this.limits);
    for (const w of work) {
      run.flying++;
      this.exec(run, w)
        .catch((e: unknown) => this.opts.log(`task ${run.t.id}: ${(e as Error).message}`))
        .finally(() => {
          run.flying--;
          this.changed(run);
          this.pump(run);
        });
    }
    // Work waiting out a backoff: look again shortly.
    if (run.flying === 0 && work.length === 0 && E.isRunning(run.t) && !run.timer && !run.feeding) {
      run.timer = setTimeout(() => {
        run.timer = null;
        this.pump(run);
      }, 250);
    }
    if (work.length) this.changed(run);
  }

  /**
   * Whether to feed the window now: from a whole list always (the pump asks only when a quarter of the window is
   * free); from a list still being written when lines were written since the last part, a quarter of the window's
   * worth of them (each feed saves the task, window included) or any while the window runs short of work.
   */
  private listHasMore(run: Run): boolean {
    const { t, list } = run;
    if (t.listing === undefined) return true;
    if (list === null || list.written <= t.listPos) return false;
    const quarter = Math.max(1, this.limits.window >> 2);
    return list.files - t.fed >= quarter || t.files.length < quarter;
  }

  /** Ends a task (failed, as a cancel does) with `reason` as its error in place of "cancelled". */
  private endWith(t: E.TaskModel, reason: string) {
    t.error = reason;
    E.cancel(t, this.now());
    t.error = reason;
  }

  private fail(run: Run, e: unknown): 'auth' | 'net' | 'refused' {
    if (e instanceof RemoteError && e.auth) {
      E.authFailed(run.t, this.now());
      return 'auth';
    }
    if (e instanceof NetworkError || !(e instanceof RemoteError)) {
      if (this.remote && this.remote.failures >= UNREACHABLE_AFTER) this.unreachable(run);
      return 'net';
    }
    return 'refused';
  }

  /** No server answers (state 13): try again every few seconds, resuming with one status call when one does. */
  private unreachable(run: Run) {
    E.serversUnreachable(run.t, this.now());
    if (run.retryTimer) return;
    run.retryTimer = setTimeout(() => {
      run.retryTimer = null;
      if (run.t.state !== S.proxyClosed || !this.remote || this.closed) return;
      this.remote.failures = 0;
      E.resume(run.t, true, this.now());
      run.t.state = S.recover;
      run.recovered = false;
      void this.resumeRun(run);
    }, 3_000);
    run.retryTimer.unref();
  }

  private errText(e: unknown) {
    return e instanceof RemoteError ? `${e.code} ${e.message}` : (e as Error).message;
  }

  private async exec(run: Run, w: E.Work): Promise<void> {
    const { t } = run;
    const remote = this.remote!;
    const now = () => this.now();
    // Work names files by seq; a file is in the window while it has work in flight.
    const file = (i: number) => {
      const f = E.fileOf(t, i);
      if (!f) throw new Error(`file ${i} left the window`);
      return f;
    };
    const localOf = (i: number) => L.localPath(t.local, file(i).rel);
    const remoteOf = (i: number) => join(t.remote, file(i).rel);
    try {
      switch (w.type) {
        case 'open': {
          try {
            const res = await remote.begin(
              w.files.map((i) => this.ref(t, file(i))),
              this.limits.rangeSize,
              run.overwrite,
            );
            const ok: { file: number; id: string; done: boolean; ranges: number[] }[] = [];
            const taken: { file: number; id: string; refusal: string }[] = [];
            res.forEach((s, j) => {
              const i = w.files[j]!;
              const refusal = `${s.code} ${s.msg ?? ''}`.trim();
              // A file of this size already under the name may be this very file (an upload run again).
              if (s.code === FileCodes.sameNameFile && !run.overwrite && s.existingSize === file(i).size)
                taken.push({ file: i, id: s.id, refusal });
              else if (s.code) E.openFailed(t, [i], refusal, now(), this.limits, true);
              else {
                ok.push({ file: i, id: s.id, done: s.done, ranges: s.ranges });
                run.rangeChecks = s.rangeChecks === true;
                // An older server wants the whole file's SHA-256: hash the file while its ranges go, so that
                // finalize does not wait for a second full read.
                if (!s.done && !run.rangeChecks && !run.sha.has(i)) {
                  const sha = L.sha256File(localOf(i));
                  sha.catch(() => undefined);
                  run.sha.set(i, sha);
                }
              }
            });
            E.opened(t, ok, now());
            if (taken.length) await this.alreadyThere(run, taken, localOf, remoteOf);
          } catch (e) {
            const kind = this.fail(run, e);
            E.openFailed(t, w.files, this.errText(e), now(), this.limits, kind === 'refused');
          }
          return;
        }
        case 'range': {
          const f = file(w.file);
          try {
            if (t.kind === 'upload') {
              const buf = this.buffers.take(w.end - w.start);
              try {
                const data = await L.readRange(localOf(w.file), w.start, w.end, buf);
                // Hashed from the buffer that is sent: the server checks it as it writes, finalize lists it.
                const digest = L.sha256Of(data);
                let digests = run.rangeSha.get(w.file);
                if (!digests) run.rangeSha.set(w.file, (digests = []));
                digests[w.n] = digest;
                await remote.range(f.remoteId!, w.n, data, digest);
              } finally {
                // Settled: the server answered after reading the whole body, or the request was destroyed (libuv
                // stops writing a closed socket), so nothing reads the buffer any more.
                this.buffers.give(buf);
              }
            } else {
              const { data, checked } = await remote.read(remoteOf(w.file), w.start, w.end);
              try {
                await L.writeAt(L.partialOf(localOf(w.file)), f.size, w.start, data);
              } finally {
                remote.giveRange(data);
              }
              if (checked) {
                let ranges = run.checkedRanges.get(w.file);
                if (!ranges) run.checkedRanges.set(w.file, (ranges = new Set()));
                ranges.add(w.n);
              }
            }
            E.rangeDone(t, w.file, w.n, now());
          } catch (e) {
            const kind = this.fail(run, e);
            // A range refused for its bytes (differ from its SHA-256, arrived short) or for a send of the same range
            // under way is sent again; other refusals fail the file.
            const again = e instanceof RemoteError && RANGE_AGAIN.has(e.code);
            E.rangeFailed(t, w.file, w.n, this.errText(e), now(), this.limits, kind === 'refused' && !again);
          }
          return;
        }
        case 'batch':
          return await (t.kind === 'upload'
            ? this.uploadBatch(run, w.files)
            : this.downloadBatch(run, w.files));
        case 'finalize': {
          const f = file(w.file);
          try {
            if (t.kind === 'upload') {
              if (run.rangeChecks) {
                // Ranges sent by an earlier run of the client (resumed) are read and hashed here; the rest were
                // hashed as they went.
                const known = run.rangeSha.get(w.file) ?? [];
                const rangesSha256 = await L.hashList(localOf(w.file), f.size, f.rangeSize, known);
                await remote.finalize(f.remoteId!, { rangesSha256 });
              } else {
                let sha = run.sha.get(w.file);
                if (!sha) {
                  sha = L.sha256File(localOf(w.file));
                  run.sha.set(w.file, sha);
                }
                await remote.finalize(f.remoteId!, { sha256: await sha });
              }
            } else {
              const partial = L.partialOf(localOf(w.file));
              if (f.size === 0) await L.writeAt(partial, 0, 0, Buffer.alloc(0));
              // Every range checked against the server's digest as it arrived: verified. Otherwise (an older server,
              // ranges of an earlier run of the client) the whole file's digest on both sides, as before.
              const checked = run.checkedRanges.get(w.file)?.size ?? 0;
              if (f.size === 0 || checked < E.rangeCount(f.size, f.rangeSize)) {
                const [theirs, ours] = await Promise.all([
                  remote.sha256(remoteOf(w.file)),
                  L.sha256File(partial),
                ]);
                if (theirs.sha256 !== ours) {
                  run.checkedRanges.delete(w.file);
                  E.finalizeFailed(t, w.file, 'checksum differs', true, now(), this.limits);
                  return;
                }
              }
              await L.publishLocal(partial, localOf(w.file), run.overwrite);
            }
            run.rangeSha.delete(w.file);
            run.checkedRanges.delete(w.file);
            E.finalizeDone(t, w.file, now());
          } catch (e) {
            const mismatch = e instanceof RemoteError && e.code === CommonCodes.verificationFailed;
            // The server lacks some ranges (a later send un-verified one): those go again.
            const missing =
              e instanceof RemoteError && e.code === CommonCodes.incompleteParams
                ? ((e.data as { missing?: number[] } | null)?.missing ?? [])
                : [];
            const kind = mismatch || missing.length ? 'net' : this.fail(run, e);
            const permanent = kind === 'refused' || (e as { code?: string }).code === 'EEXIST';
            if (mismatch) {
              run.sha.delete(w.file);
              run.rangeSha.delete(w.file);
            }
            E.finalizeFailed(t, w.file, this.errText(e), mismatch, now(), this.limits, permanent, missing);
          }
          return;
        }
      }
    } finally {
      void this.maybeSave(run);
    }
  }

  /**
   * Sends one tar batch and gives the engine its outcome: what the server stored, what failed (permanently when
   * refused), and every file it did not answer about as failed for a retry. One place for the retry rules of both
   * directions.
   */
  private async batch(
    run: Run,
    files: number[],
    send: () => Promise<{ stored: number[]; failed: BatchFailure[] }>,
  ): Promise<void> {
    let stored: number[] = [];
    let failed: BatchFailure[];
    try {
      ({ stored, failed } = await send());
    } catch (e) {
      const kind = this.fail(run, e);
      failed = files.map((file) => ({ file, error: this.errText(e), permanent: kind === 'refused' }));
    }
    const answered = new Set([...stored, ...failed.map((x) => x.file)]);
    for (const i of files)
      if (!answered.has(i)) failed.push({ file: i, error: 'no answer', permanent: false });
    E.batchDone(run.t, stored, failed, this.now(), this.limits);
  }

  /** Small files in one tar stream: each read and hashed once, the manifest of SHA-256s first. */
  private async uploadBatch(run: Run, files: number[]) {
    const { t } = run;
    const jobs = files.map((i) => E.fileOf(t, i)!);
    return this.batch(run, files, async () => {
      // The archive is laid out first and each file read straight into its place and hashed, in the file thread (a
      // few MiB at most); the manifest of SHA-256s leads it, its size known before the files are hashed (a digest is
      // 64 hex digits whatever it is).
      const ids = jobs.map((f) => this.ref(t, f).identifier);
      const manifestOf = (list: number[], digests: string[]) => {
        const files: Record<string, { sha256: string; identifier: string }> = {};
        for (const k of list) files[jobs[k]!.rel] = { sha256: digests[k]!, identifier: ids[k]! };
        return Buffer.from(JSON.stringify({ files }));
      };
      const all = jobs.map((_, k) => k);
      /** An archive of the files `list`, each entry's data area left to fill, and where each one's data goes. */
      const layOut = (list: number[], manifestBytes: number) => {
        const w = new TarWriter();
        const manifestAt = w.add(MANIFEST, manifestBytes);
        const at = list.map((k) => w.add(jobs[k]!.rel, jobs[k]!.size));
        const tar = Buffer.alloc(w.size());
        w.build(tar);
        return { tar, manifestAt, at };
      };
      const first = layOut(
        all,
        manifestOf(
          all,
          all.map(() => '0'.repeat(64)),
        ).length,
      );
      const { archive, digests } = await fileThread.read(
        first.tar,
        jobs.map((f, k) => ({ path: L.localPath(t.local, f.rel), at: first.at[k]!, length: f.size })),
      );
      // A folder sent again: the files the server has byte for byte stay out of the archive.
      const same = await this.sameOnServer(run, jobs, digests);
      const sent = all.filter((k) => !same.has(jobs[k]!.rel));
      if (sent.length === 0) return { stored: jobs.map((f) => f.seq), failed: [] };
      let tar = archive;
      if (sent.length === jobs.length) manifestOf(all, digests).copy(tar, first.manifestAt);
      else {
        const manifest = manifestOf(sent, digests);
        const fewer = layOut(sent, manifest.length);
        manifest.copy(fewer.tar, fewer.manifestAt);
        sent.forEach((k, j) =>
          archive.copy(fewer.tar, fewer.at[j], first.at[k], first.at[k]! + jobs[k]!.size),
        );
        tar = fewer.tar;
      }
      const res = await this.remote!.batch(t.remote, tar, run.overwrite);
      const index = new Map(jobs.map((f) => [f.rel, f.seq]));
      return {
        stored: [
          ...jobs.flatMap((f) => (same.has(f.rel) ? [f.seq] : [])),
          ...res.stored.flatMap((rel) => (index.has(rel) ? [index.get(rel)!] : [])),
        ],
        failed: res.failed.flatMap((x) =>
          index.has(x.path)
            ? [
                {
                  file: index.get(x.path)!,
                  error: x.code,
                  permanent: x.code !== CommonCodes.verificationFailed && x.code !== CommonCodes.interrupted,
                },
              ]
            : [],
        ),
      };
    });
  }

  /**
   * The names of a batch's files that the server has already with these bytes (`same.action`), while the task
   * still asks: a task stops asking at the first batch of which the server had none (a first upload pays a few
   * such calls, the batches in flight before that answer), and when the server cannot answer it (an older efile,
   * a refusal). A call that fails on the way costs nothing but the skip: the batch then goes whole, as before.
   */
  private async sameOnServer(run: Run, jobs: E.FileJob[], digests: string[]): Promise<Set<string>> {
    if (!run.askSame) return new Set();
    try {
      const same = await this.remote!.same(
        run.t.remote,
        jobs.map((f, k) => ({ name: f.rel, size: f.size, sha256: digests[k]! })),
      );
      if (same.length === 0) run.askSame = false;
      return new Set(same);
    } catch (e) {
      if (!(e instanceof NetworkError)) run.askSame = false;
      return new Set();
    }
  }

  private async downloadBatch(run: Run, files: number[]) {
    const { t } = run;
    const jobs = files.map((i) => E.fileOf(t, i)!);
    return this.batch(run, files, async () => {
      // A folder fetched again: the files here already with efile's bytes are not fetched.
      const here = await this.sameHere(run, jobs);
      const fetch = jobs.filter((f) => !here.has(f.rel));
      const kept = jobs.flatMap((f) => (here.has(f.rel) ? [f.seq] : []));
      if (fetch.length === 0) return { stored: kept, failed: [] };
      const byName = new Map(fetch.map((f) => [join(t.remote, f.rel).slice(1), f.seq]));
      const body = await this.remote!.readBatch(fetch.map((f) => join(t.remote, f.rel)));
      const entries = tarFiles(body);
      const m = entries.find((e) => e.name === MANIFEST);
      if (!m) throw new NetworkError('incomplete batch');
      const manifest = JSON.parse(new TextDecoder().decode(m.data)) as {
        files: Record<string, { sha256: string }>;
        failed: Record<string, string>;
      };
      const stored: number[] = kept;
      const failed: BatchFailure[] = [];
      // Checked, written and named in the file thread, the answer's memory moved there (file-thread.ts says why).
      const writes: WriteJob[] = [];
      const seqs: number[] = [];
      for (const e of entries) {
        const i = byName.get(e.name);
        if (i === undefined) continue;
        const want = manifest.files['/' + e.name]?.sha256;
        if (!want) {
          failed.push({ file: i, error: 'checksum differs' });
          continue;
        }
        const final = L.localPath(t.local, E.fileOf(t, i)!.rel);
        writes.push({ final, at: e.data.byteOffset - body.byteOffset, length: e.data.length, sha256: want });
        seqs.push(i);
      }
      const out = await fileThread.write(body, writes, run.overwrite);
      out.forEach((o, k) => {
        if (o === null) stored.push(seqs[k]!);
        else failed.push({ file: seqs[k]!, error: o.message, ...(o.permanent ? { permanent: true } : {}) });
      });
      for (const [p, code] of Object.entries(manifest.failed ?? {})) {
        const i = byName.get(p.slice(1));
        if (i !== undefined) failed.push({ file: i, error: code, permanent: true });
      }
      return { stored, failed };
    });
  }

  /**
   * The names of a download batch's files that are here already with efile's bytes: those under their local name
   * as a regular file of their size are read and hashed (in the file thread) and efile is asked which it has with
   * those digests (`same.action`). Nothing here of that size, no call. A server that cannot answer stops the asking;
   * anything failing on the way costs only the skip (the batch is fetched whole, and a file already here with the
   * same bytes still counts as written when it arrives).
   */
  private async sameHere(run: Run, jobs: E.FileJob[]): Promise<Set<string>> {
    if (!run.askSame) return new Set();
    const { t } = run;
    const stats = await Promise.all(jobs.map((f) => fs.lstat(L.localPath(t.local, f.rel)).catch(() => null)));
    const here = jobs.filter((f, k) => stats[k]?.isFile() && stats[k].size === f.size);
    if (here.length === 0) return new Set();
    try {
      let at = 0;
      const spans = here.map((f) => {
        const span = { path: L.localPath(t.local, f.rel), at, length: f.size };
        at += f.size;
        return span;
      });
      const { digests } = await fileThread.read(Buffer.alloc(at), spans);
      const same = await this.remote!.same(
        t.remote,
        here.map((f, k) => ({ name: f.rel, size: f.size, sha256: digests[k]! })),
      );
      return new Set(same);
    } catch (e) {
      if (e instanceof RemoteError) run.askSame = false;
      return new Set();
    }
  }

  /**
   * Files of an upload whose name is taken by a file of their size: each one that holds the same bytes (its SHA-256
   * from efile against the local file's, both read at once) counts as done, as a file already there does for a
   * download; any other stays refused ("1021"), never replaced without `overwrite`. An upload run again after an
   * interruption thus finishes instead of failing every file it had sent (FASTRANS.md, "A file already there").
   */
  private async alreadyThere(
    run: Run,
    taken: { file: number; id: string; refusal: string }[],
    localOf: (i: number) => string,
    remoteOf: (i: number) => string,
  ) {
    const { t } = run;
    await Promise.all(
      taken.map(async ({ file, id, refusal }) => {
        let same: boolean;
        try {
          const [ours, theirs] = await Promise.all([
            L.sha256File(localOf(file)),
            this.remote!.sha256(remoteOf(file)),
          ]);
          same = theirs.sha256 === ours && theirs.size === E.fileOf(t, file)?.size;
        } catch (e) {
          // Not known (a lost server, a local read that failed): tried again like any open that failed.
          const kind = this.fail(run, e);
          E.openFailed(t, [file], this.errText(e), this.now(), this.limits, kind === 'refused');
          return;
        }
        if (same) E.opened(t, [{ file, id, done: true, ranges: [] }], this.now());
        else E.openFailed(t, [file], refusal, this.now(), this.limits, true);
      }),
    );
  }

  private maybeSave(run: Run, force = false): Promise<void> {
    if (this.closed) return run.saving;
    const now = this.now();
    if (!force && now - run.savedAt < 2_000) return run.saving;
    run.savedAt = now;
    return this.save(run);
  }

  /**
   * Saves the task as it is when the write starts, one save of a task at a time. Saves written side by side could
   * end in the wrong order (each a temp file renamed over the task's file), leaving an older state on disk than the
   * last one asked for: a task reported finished was read back with one file less done. A save asked for while one
   * is writing waits for it and then writes the latest state; further asks meanwhile join that one. Failures are
   * logged, never thrown (the next save writes the whole state again).
   */
  private save(run: Run): Promise<void> {
    if (run.saveWaiting) return run.saveWaiting;
    const next = run.saving.then(async () => {
      run.saveWaiting = null;
      await this.opts.store
        .save(run.t)
        .catch((e: unknown) => this.opts.log(`saving task ${run.t.id}: ${(e as Error).message}`));
    });
    run.saveWaiting = next;
    run.saving = next;
    return next;
  }

  private changed(run: Run) {
    if (this.closed) return;
    const now = this.now();
    run.meter.sample(run.t.bytesDone, now);
    const stateChanged = run.t.state !== run.lastState;
    if (stateChanged) {
      run.lastState = run.t.state;
      void this.maybeSave(run, true);
      for (const check of [...(this.waiters.get(run.t.id) ?? [])]) check();
    }
    if (stateChanged || now - run.emittedAt >= 500) {
      run.emittedAt = now;
      this.opts.emit(this.summary(run));
    }
  }

  summary(run: Run): TaskSummary {
    const t = run.t;
    return {
      task_id: t.id,
      kind: t.kind,
      state: t.state,
      files: t.filesTotal,
      count: t.filesDone,
      failed: t.failed.length + t.files.filter((f) => f.state === 'failed').length,
      bytesDone: t.bytesDone,
      bytesTotal: t.bytesTotal,
      // Always said, false too: the page merges each summary over the one before, so a key left out would keep
      // an earlier true.
      listing: t.listing !== undefined && !E.isFinished(t),
      speed: Math.round(run.meter.speed),
      eta: run.meter.eta(t.bytesDone, t.bytesTotal),
      local: t.local,
      remote: t.remote,
      error: t.error,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
    };
  }

  list(): TaskSummary[] {
    return [...this.runs.values()].map((r) => this.summary(r));
  }

  info(id: string) {
    const run = this.runs.get(id);
    if (!run) return null;
    return {
      ...this.summary(run),
      // Failed files first, then the window (the files under way); done files left memory with the window.
      list: [...run.t.failed, ...run.t.files]
        .slice(0, 1000)
        .map((f) => ({ rel: f.rel, size: f.size, state: f.state, error: f.error })),
    };
  }

  count() {
    const all = this.list();
    const running = all.filter((s) => ![S.successful, S.failed, S.stopped].includes(s.state as never)).length;
    return { total: all.length, running, finished: all.length - running };
  }

  /** pause, resume, cancel (cancel also removes the server's partial files of an upload) or retry. */
  async control(id: string, op: 'pause' | 'resume' | 'cancel' | 'retry') {
    const run = this.runs.get(id);
    if (!run) return null;
    const now = this.now();
    if (op === 'pause') E.pause(run.t, now);
    if (op === 'resume') {
      E.resume(run.t, !!this.remote, now);
      run.recovered = false;
      if (this.remote) {
        run.t.state = S.recover;
        void this.resumeRun(run);
      }
    }
    if (op === 'retry') {
      E.retry(run.t, !!this.remote, now);
      this.continueList(run);
    }
    if (op === 'cancel') {
      E.cancel(run.t, now);
      run.list?.abort.abort();
      if (run.t.kind === 'upload' && this.remote) {
        const ids = [...run.t.failed, ...run.t.files]
          .filter((f) => f.remoteId && f.state !== 'done')
          .map((f) => f.remoteId!);
        for (let k = 0; k < ids.length; k += 5000)
          await this.remote.cancel(ids.slice(k, k + 5000)).catch(() => undefined);
      }
      if (run.t.kind === 'download')
        for (const f of [...run.t.failed, ...run.t.files])
          if (f.mode === 'ranges' && f.state !== 'done')
            await L.removeLocal(L.partialOf(L.localPath(run.t.local, f.rel)));
    }
    this.changed(run);
    this.pump(run);
    return this.summary(run);
  }

  /**
   * Waits until the task is finished or stopped (command line). Woken by the change that ends the task (`changed`),
   * not by a poll: a poll every 200 ms added 100 ms on average to every `fastrans upload …` and to each transfer the
   * benches time against scp and rsync. The slow poll stays as a safety net for a state set where `changed` is not
   * called.
   */
  waitFor(id: string): Promise<TaskSummary> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      let waiters = this.waiters.get(id);
      if (!waiters) this.waiters.set(id, (waiters = new Set()));
      const check = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        const run = this.runs.get(id)!;
        if (E.isFinished(run.t) || run.t.state === S.authFailed) {
          waiters.delete(check);
          if (waiters.size === 0 && this.waiters.get(id) === waiters) this.waiters.delete(id);
          // Answered once that state is on disk: a caller may stop the client (or read the history) right after.
          // `changed` has already asked for that save when it saw the state (its last seen); only a state it did not
          // see (set without it, or after close) needs one of its own.
          const saved = run.lastState === run.t.state ? run.saving : this.maybeSave(run, true);
          void saved.then(() => resolve(this.summary(run)));
        } else timer = setTimeout(check, 1000);
      };
      waiters.add(check);
      check();
    });
  }

  /**
   * Stops: the history is saved as it is; answers still in flight change nothing any more. Resolves once those saves
   * are written: a process that exits (or a test that removes the history folder) right after would otherwise race
   * the last one.
   */
  async close(): Promise<void> {
    const saves: Promise<void>[] = [];
    for (const run of this.runs.values()) {
      if (run.timer) clearTimeout(run.timer);
      if (run.retryTimer) clearTimeout(run.retryTimer);
      saves.push(this.maybeSave(run, true));
    }
    this.closed = true;
    await Promise.all(saves);
  }
}
