import { chunkIdentifier, chunkRange, Limits, totalChunks } from '@hpc/contracts';
import { smoothSpeed } from './chunk-math';
import { ChunkError, type ChunkTransport } from './chunk-transport';
import {
  deleteOutcome,
  nextChunk,
  viewRow,
  type FileTask,
  type PickedFile,
  type RowView,
  type UploadRow,
  type UploadTarget,
} from './upload-queue';

export interface EngineOptions {
  transport: ChunkTransport;
  /** Finalizes a file whose chunks are all stored but whose last answer did not say complete (merge.action). */
  merge: (target: UploadTarget, file: FileTask) => Promise<void>;
  /** Deletes the partial files of unfinished uploads (their final paths). */
  deletePartial: (target: UploadTarget, paths: string[]) => Promise<void>;
  simultaneousUploads?: number;
  testChunks?: boolean;
  progressIntervalMs?: number;
  speedSmoothing?: number;
  /** Timers are injectable for tests. */
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

export interface NewRow {
  target: UploadTarget;
  name: string;
  isFolder: boolean;
  files: PickedFile[];
  chunkSize: number;
  overwrite: boolean;
}

let seq = 0;
const newId = (p: string) => `${p}${Date.now().toString(36)}-${(seq++).toString(36)}`;
const joinDir = (dir: string, rel: string) => (dir === '/' ? `/${rel}` : `${dir}/${rel}`);
/** A chunk failed because the instance is gone (network error, or a proxy's 502/503/504), not because of the chunk. */
const UNREACHABLE = new Set(['0', '502', '503', '504']);
/** Instance switches per row before its files fail like any other error (every instance down, or flapping). */
const MAX_FAILOVERS = 3;

/**
 * The upload list's engine: rows of files, chunks sent with `simultaneousUploads` requests at most (spec §9: 3),
 * a test GET before each chunk, no retries, progress and smoothed speed published every 500 ms. Pause aborts the
 * row's chunks in flight (they are sent again on resume); state changes publish at once.
 */
export class UploadEngine {
  private rows: UploadRow[] = [];
  private readonly files = new Map<string, FileTask>();
  private order: FileTask[] = [];
  private readonly inFlight = new Map<string, { ctrl: AbortController; loaded: number; fileId: string }>();
  private readonly doneBytes = new Map<string, number>();
  private readonly lastBytes = new Map<string, { bytes: number; at: number }>();
  private readonly listeners = new Set<() => void>();
  private readonly doneListeners = new Set<(target: UploadTarget, file: FileTask) => void>();
  private snapshot: RowView[] = [];
  /** Rows looking for another instance right now (their chunks wait), and how often each switched. */
  private readonly switching = new Map<string, Promise<boolean>>();
  private readonly failovers = new Map<string, number>();
  private timer: unknown = null;
  private readonly opts: Required<Omit<EngineOptions, 'setInterval' | 'clearInterval'>> &
    Pick<EngineOptions, 'setInterval' | 'clearInterval'>;

  constructor(opts: EngineOptions) {
    this.opts = {
      simultaneousUploads: Limits.simultaneousUploads,
      testChunks: true,
      progressIntervalMs: Limits.progressIntervalMs,
      speedSmoothing: Limits.speedSmoothing,
      ...opts,
    };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getSnapshot = (): RowView[] => this.snapshot;
  /** Called for each file that lands on the server (the page refreshes the folder it shows). */
  onFileDone(fn: (target: UploadTarget, file: FileTask) => void): () => void {
    this.doneListeners.add(fn);
    return () => this.doneListeners.delete(fn);
  }
  rowList(): readonly UploadRow[] {
    return this.rows;
  }
  filesOf(rowId: string): FileTask[] {
    const row = this.rows.find((r) => r.id === rowId);
    return row ? row.fileIds.map((id) => this.files.get(id)!).filter(Boolean) : [];
  }

  add(spec: NewRow): string {
    const rowId = newId('r');
    const tasks: FileTask[] = spec.files.map((f) => ({
      id: newId('f'),
      rowId,
      blob: f.blob,
      relativePath: f.relativePath,
      size: f.blob.size,
      chunkSize: spec.chunkSize,
      identifier: chunkIdentifier(f.blob.size, f.relativePath),
      overwrite: spec.overwrite,
      done: new Set<number>(),
      sent: 0,
      cursor: 1,
      state: 'queued',
    }));
    for (const t of tasks) this.files.set(t.id, t);
    this.order.push(...tasks);
    this.rows.push({
      id: rowId,
      name: spec.name,
      isFolder: spec.isFolder,
      target: spec.target,
      size: tasks.reduce((s, t) => s + t.size, 0),
      fileIds: tasks.map((t) => t.id),
      paused: false,
      averageSpeed: 0,
    });
    this.publish();
    this.pump();
    return rowId;
  }

  /** A row that failed before it could upload anything (mkdir of its folder refused). */
  addFailed(target: UploadTarget, name: string, isFolder: boolean, errorCode: string): void {
    this.rows.push({
      id: newId('r'),
      name,
      isFolder,
      target,
      size: 0,
      fileIds: [],
      paused: false,
      averageSpeed: 0,
      errorCode,
    });
    this.publish();
  }

  /** Pause and resume act on the root file (spec §4); resume goes back to play. */
  pause(rowId: string): void {
    const row = this.rows.find((r) => r.id === rowId);
    if (!row) return;
    row.paused = true;
    this.abortRow(rowId);
    this.publish();
  }

  resume(rowId: string): void {
    const row = this.rows.find((r) => r.id === rowId);
    if (!row) return;
    row.paused = false;
    this.publish();
    this.pump();
  }

  /**
   * Runs the failed files of an error row again (spec §4 "retried after an error"). The chunks the server already
   * has are kept: those known are skipped, and the test request before each other chunk finds the ones stored
   * before the failure, so only what is missing is sent. A file whose chunks are all stored is only finalized.
   * A row that failed before any file could start (its folder could not be created) has nothing to re-run.
   */
  retry(rowId: string): boolean {
    const row = this.rows.find((r) => r.id === rowId);
    if (!row || row.fileIds.length === 0) return false;
    const failed = this.filesOf(rowId).filter((f) => f.state === 'error');
    if (failed.length === 0 && !row.errorCode) return false;
    row.errorCode = undefined;
    row.paused = false;
    for (const f of failed) {
      f.state = 'queued';
      f.errorCode = undefined;
      f.cursor = 1;
      f.sent = this.doneBytes.get(f.id) ?? 0;
    }
    this.publish();
    for (const f of failed) {
      if (f.done.size === totalChunks(f.size, f.chunkSize)) void this.finalize(row, f, false);
    }
    this.pump();
    return true;
  }

  /** Deletes a row: see {@link deleteOutcome}. Resolves once partial files are gone. */
  async remove(rowId: string): Promise<'deleted' | 'removed'> {
    const row = this.rows.find((r) => r.id === rowId);
    if (!row) return 'removed';
    const view = viewRow(row, this.filesOf(rowId));
    const outcome = deleteOutcome(view);
    const unfinished = this.filesOf(rowId).filter((f) => f.state !== 'success');
    // Asked before the abort below resets what was sent: a file whose first chunk is still on its way has nothing
    // done and, once aborted, nothing sent, yet the server may have begun it (its hidden partial file exists).
    const started = unfinished.filter(
      (f) => f.done.size > 0 || f.sent > 0 || f.state === 'error' || this.hasInFlight(f.id),
    );
    this.abortRow(rowId);
    this.rows = this.rows.filter((r) => r.id !== rowId);
    this.order = this.order.filter((f) => f.rowId !== rowId);
    for (const id of row.fileIds) this.files.delete(id);
    this.publish();
    this.pump();
    // An unfinished folder leaves the list silently (spec §4), but its partial files are still cleaned up.
    if (started.length > 0) {
      await this.opts.deletePartial(
        row.target,
        started.map((f) => joinDir(row.target.dir, f.relativePath)),
      );
    }
    return outcome;
  }

  /** Whether anything is still waiting, playing or paused (the beforeunload warning). */
  hasUnfinished(): boolean {
    return this.snapshot.some((r) => r.status === 'waiting' || r.status === 'play' || r.status === 'pause');
  }

  private abortRow(rowId: string) {
    for (const [key, f] of [...this.inFlight]) {
      const file = this.files.get(f.fileId);
      if (file?.rowId !== rowId) continue;
      f.ctrl.abort();
      this.inFlight.delete(key);
      const n = Number(key.slice(key.lastIndexOf(':') + 1));
      file.cursor = Math.min(file.cursor, n);
      file.sent = this.doneBytes.get(file.id) ?? 0;
    }
  }

  private pump() {
    const paused = (rowId: string) =>
      (this.rows.find((r) => r.id === rowId)?.paused ?? true) || this.switching.has(rowId);
    const inFlightKeys = new Set(this.inFlight.keys());
    while (this.inFlight.size < this.opts.simultaneousUploads) {
      const next = nextChunk(this.order, paused, inFlightKeys, (f) => totalChunks(f.size, f.chunkSize));
      if (!next) break;
      const key = `${next.file.id}:${next.n}`;
      inFlightKeys.add(key);
      const entry = { ctrl: new AbortController(), loaded: 0, fileId: next.file.id };
      this.inFlight.set(key, entry);
      void this.runChunk(next.file, next.n, key, entry);
    }
    this.syncTimer();
  }

  private async runChunk(
    file: FileTask,
    n: number,
    key: string,
    entry: { ctrl: AbortController; loaded: number },
  ) {
    const row = this.rows.find((r) => r.id === file.rowId);
    if (!row) return;
    const { signal } = entry.ctrl;
    const base = row.target.baseUrl;
    try {
      let complete = false;
      const stored = this.opts.testChunks
        ? await this.opts.transport.test(row.target, file, n, signal)
        : false;
      if (signal.aborted) return;
      if (!stored) {
        const r = await this.opts.transport.send(row.target, file, n, signal, (loaded) => {
          entry.loaded = loaded;
          file.sent = (this.doneBytes.get(file.id) ?? 0) + this.inFlightBytes(file.id);
        });
        complete = r.complete;
      }
      if (signal.aborted || this.inFlight.get(key) !== entry) return;
      this.inFlight.delete(key);
      const { start, end } = chunkRange(n, file.size, file.chunkSize);
      file.done.add(n);
      this.doneBytes.set(file.id, (this.doneBytes.get(file.id) ?? 0) + (end - start));
      file.sent = (this.doneBytes.get(file.id) ?? 0) + this.inFlightBytes(file.id);
      if (file.done.size === totalChunks(file.size, file.chunkSize)) await this.finalize(row, file, complete);
    } catch (e) {
      if (signal.aborted || this.inFlight.get(key) !== entry) return;
      this.inFlight.delete(key);
      if (e instanceof ChunkError && e.aborted) return;
      if (e instanceof ChunkError && UNREACHABLE.has(e.code) && (await this.failover(row, file, n, base)))
        return;
      this.fail(file, e);
    } finally {
      this.pump();
    }
  }

  /**
   * The instance of `row` stopped answering (spec §4): ask the target for another working one and send the chunk
   * (and everything after it) there. The chunks already stored stay: the test GET and the merge on the new instance
   * read them from the shared database. True when the row now has another instance.
   */
  private async failover(row: UploadRow, file: FileTask, n: number, base: string): Promise<boolean> {
    file.cursor = Math.min(file.cursor, n);
    file.sent = (this.doneBytes.get(file.id) ?? 0) + this.inFlightBytes(file.id);
    // A chunk of the old instance failing after the row already moved: just send it again.
    if (row.target.baseUrl !== base) return true;
    const find = row.target.failover;
    if (!find) return false;
    let pending = this.switching.get(row.id);
    if (!pending) {
      const count = (this.failovers.get(row.id) ?? 0) + 1;
      this.failovers.set(row.id, count);
      pending =
        count > MAX_FAILOVERS
          ? Promise.resolve(false)
          : find()
              .then((url) => {
                if (!url || url === base) return false;
                row.target = { ...row.target, baseUrl: url };
                return true;
              })
              .catch(() => false)
              .finally(() => this.switching.delete(row.id));
      this.switching.set(row.id, pending);
    }
    const moved = await pending;
    this.switching.delete(row.id);
    return moved;
  }

  /** Every chunk is stored: merge unless the last answer said complete, then the file is done. */
  private async finalize(row: UploadRow, file: FileTask, complete: boolean) {
    try {
      if (!complete) await this.opts.merge(row.target, file);
    } catch (e) {
      this.fail(file, e);
      return;
    }
    if (file.state !== 'queued') return;
    file.state = 'success';
    for (const fn of this.doneListeners) fn(row.target, file);
    this.publish();
  }

  private fail(file: FileTask, e: unknown) {
    file.state = 'error';
    file.errorCode = e instanceof ChunkError ? e.code : ((e as { code?: string }).code ?? 'upload');
    // No automatic retries (spec §9): the file fails; its other chunks in flight are pointless now.
    for (const [k, f] of [...this.inFlight]) {
      if (f.fileId === file.id) {
        f.ctrl.abort();
        this.inFlight.delete(k);
      }
    }
    this.publish();
  }

  private hasInFlight(fileId: string): boolean {
    for (const f of this.inFlight.values()) if (f.fileId === fileId) return true;
    return false;
  }

  private inFlightBytes(fileId: string): number {
    let s = 0;
    for (const f of this.inFlight.values()) if (f.fileId === fileId) s += f.loaded;
    return s;
  }

  /** The 500 ms progress tick runs only while chunks are in flight. */
  private syncTimer() {
    const active = this.inFlight.size > 0;
    const set = this.opts.setInterval ?? ((fn: () => void, ms: number) => setInterval(fn, ms));
    const clear =
      this.opts.clearInterval ?? ((h: unknown) => clearInterval(h as ReturnType<typeof setInterval>));
    if (active && this.timer === null) this.timer = set(() => this.tick(), this.opts.progressIntervalMs);
    if (!active && this.timer !== null) {
      clear(this.timer);
      this.timer = null;
      this.tick();
    }
  }

  private tick() {
    const now = Date.now();
    for (const row of this.rows) {
      const bytes = this.filesOf(row.id).reduce((s, f) => s + f.sent, 0);
      const last = this.lastBytes.get(row.id);
      this.lastBytes.set(row.id, { bytes, at: now });
      if (!last || now <= last.at) continue;
      const current = Math.max(0, ((bytes - last.bytes) * 1000) / (now - last.at));
      row.averageSpeed = smoothSpeed(row.averageSpeed, current, this.opts.speedSmoothing);
    }
    this.publish();
  }

  private publish() {
    // Progress never goes back (a pause drops the bytes in flight): each row starts from what it showed.
    const shown = new Map(this.snapshot.map((v) => [v.id, v.progress]));
    this.snapshot = this.rows.map((r) => viewRow(r, this.filesOf(r.id), shown.get(r.id)));
    for (const fn of this.listeners) fn();
  }
}
