import { FastransTaskState as S, backoffMs, type FastransTaskState } from '@hpc/contracts';

/**
 * The transfer engine: a deterministic state machine with no I/O and no clock of its own (the caller passes `now`).
 * It decides what to send next (ranges of large files, tar batches of small ones, finalizes) and takes back what
 * happened (done, failed, restarted). The driver (`../transfer/runner.ts`) does the I/O. Because every outcome is an
 * input here, a property test can play any interleaving of completions, failures and restarts against a simulated
 * server and check that each file ends exact (engine/task.test.ts).
 *
 * The model is mutated in place, and it holds a bounded window of the task's files, not the task: a task may have
 * 1,000,000 files, and ~300 bytes per file plus the history saving all of them was ~450 MB of client memory. The
 * driver keeps the file list itself on disk (the history's list file) and `feed`s the window as room frees up
 * (`room`); settled files leave the window (`compact`), failed ones are kept aside in `failed` for the report and a
 * retry. Work names files by `seq`, a number given when a file enters the window, so answers still find their
 * file after the window moved (and an answer about a file that left it changes nothing).
 */

export type TaskKind = 'upload' | 'download';

export interface RangeSlot {
  state: 'todo' | 'flight' | 'done';
  attempts: number;
  /** Not sent again before this time (retry backoff). */
  retryAt: number;
}

export interface FileJob {
  /** Number of this file in the task (ascending in `files`): what work and answers name it by. */
  seq: number;
  /** Path relative to the task's base (local folder for uploads, remote folder for downloads), '/'-separated. */
  rel: string;
  size: number;
  /** 'ranges': preallocated partial written at offsets; 'batch': sent whole inside a tar batch. */
  mode: 'ranges' | 'batch';
  rangeSize: number;
  ranges: RangeSlot[];
  state: 'todo' | 'opening' | 'active' | 'finalizing' | 'done' | 'failed';
  /** The server's id of this upload's partial file (uploads), set by `opened`. */
  remoteId: string | null;
  finalizeAttempts: number;
  retryAt: number;
  error: string | null;
}

export interface TaskModel {
  id: string;
  kind: TaskKind;
  state: FastransTaskState;
  /** Local and remote base paths; files are `rel` below both. */
  local: string;
  remote: string;
  clusterId: string;
  /** The window: files taken from the list and not yet compacted away, ascending `seq`. */
  files: FileJob[];
  /** Files that failed for good and left the window (a retry puts them back). */
  failed: FileJob[];
  filesTotal: number;
  bytesTotal: number;
  bytesDone: number;
  filesDone: number;
  /** Done files that left the window, and their bytes (for `recount`). */
  droppedDone: number;
  droppedBytes: number;
  /** Entries of the list fed so far; the driver's position in its list (opaque here); whether the list ended. */
  fed: number;
  listPos: number;
  listEnded: boolean;
  /**
   * Set while the driver is still writing the list (the transfer began with its first part): what it lists, so that
   * a driver stopped before the end can list it again and continue. Absent once the list is whole.
   */
  listing?: { picked: string } | { paths: string[] };
  nextSeq: number;
  createdAt: number;
  updatedAt: number;
  error: string | null;
  /** Tar batches sent and not yet answered. */
  batchesInFlight: number;
}

export interface EngineLimits {
  /** Large files with work in flight at once (rclone: 4 transfers). */
  filesInFlight: number;
  /**
   * Ranges in flight per large file. As many as the task's streams: one large file may take them all (the next file
   * takes what it leaves), which kept the same 128 MiB of range buffers and made a 2 GiB upload 11 % and its download
   * 15 % faster on one machine than four (rclone's default), alternating runs (PERFORMANCE.md, 2026-11-30).
   */
  streamsPerFile: number;
  /** Range requests in flight per task. */
  streamsTotal: number;
  /** Files at most this size go in tar batches. */
  smallFile: number;
  batchFiles: number;
  batchBytes: number;
  /**
   * Tar batches sent and not yet answered, per task. A batch is stored (or read) only once it arrived whole, so on a
   * long link the next ones must already be on their way: six, not three, took the 10,000-file upload through a
   * 40 ms round trip from 1.9-2.1 s to 1.7 s and the download from 1.5 to 1.3 s, same as before on one machine
   * (PERFORMANCE.md). At most six times batchBytes (96 MiB) of a task's batches are in memory at once.
   */
  batchesInFlight: number;
  rangeSize: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Files held in the window at most (the client's memory stays bounded whatever the task's size). */
  window: number;
}

export const DEFAULT_LIMITS: EngineLimits = {
  filesInFlight: 4,
  streamsPerFile: 8,
  streamsTotal: 8,
  smallFile: 1024 * 1024,
  batchFiles: 500,
  batchBytes: 16 * 1024 * 1024,
  batchesInFlight: 6,
  rangeSize: 16 * 1024 * 1024,
  maxAttempts: 8,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  window: 8192,
};

export type Work =
  | { type: 'open'; files: number[] }
  | { type: 'range'; file: number; n: number; start: number; end: number }
  | { type: 'batch'; files: number[] }
  | { type: 'finalize'; file: number };

const RUNNING: FastransTaskState[] = [S.ready, S.started, S.recover, S.connectingProxy];
const FINISHED: FastransTaskState[] = [S.successful, S.failed];

export const rangeCount = (size: number, rangeSize: number) => Math.max(1, Math.ceil(size / rangeSize));
export const rangeBounds = (f: FileJob, n: number) => ({
  start: n * f.rangeSize,
  end: Math.min(f.size, (n + 1) * f.rangeSize),
});
const rangeBytes = (f: FileJob, n: number) => {
  const b = rangeBounds(f, n);
  return b.end - b.start;
};

function job(seq: number, f: { rel: string; size: number }, limits: EngineLimits): FileJob {
  const mode = f.size <= limits.smallFile ? 'batch' : 'ranges';
  const rangeSize = mode === 'batch' ? Math.max(1, f.size) : limits.rangeSize;
  const n = mode === 'batch' ? 1 : rangeCount(f.size, rangeSize);
  return {
    seq,
    rel: f.rel,
    size: f.size,
    mode,
    rangeSize,
    ranges: Array.from({ length: n }, () => ({ state: 'todo', attempts: 0, retryAt: 0 })),
    state: 'todo',
    remoteId: null,
    finalizeAttempts: 0,
    retryAt: 0,
    error: null,
  };
}

/**
 * A new task. With `files`, they are the whole list (fed at once: tests, small tasks); without, the driver gives
 * the totals of its list and `feed`s the window.
 */
export function createTask(
  input: {
    id: string;
    kind: TaskKind;
    local: string;
    remote: string;
    clusterId: string;
    files?: { rel: string; size: number }[];
    filesTotal?: number;
    bytesTotal?: number;
  },
  now: number,
  limits: EngineLimits = DEFAULT_LIMITS,
): TaskModel {
  const t: TaskModel = {
    id: input.id,
    kind: input.kind,
    state: S.todo,
    local: input.local,
    remote: input.remote,
    clusterId: input.clusterId,
    files: [],
    failed: [],
    filesTotal: input.files?.length ?? input.filesTotal ?? 0,
    bytesTotal: input.files?.reduce((a, f) => a + f.size, 0) ?? input.bytesTotal ?? 0,
    bytesDone: 0,
    filesDone: 0,
    droppedDone: 0,
    droppedBytes: 0,
    fed: 0,
    listPos: 0,
    listEnded: false,
    nextSeq: 0,
    createdAt: now,
    updatedAt: now,
    error: null,
    batchesInFlight: 0,
  };
  if (input.files) feed(t, input.files, input.files.length, true, limits);
  return t;
}

/** How many files the window takes now (0 once the list ended). */
export function room(t: TaskModel, l: EngineLimits = DEFAULT_LIMITS): number {
  if (t.listEnded) return 0;
  compact(t);
  return Math.max(0, l.window - t.files.length);
}

/** The next entries of the list, the driver's position after them, and whether the list ends there. */
export function feed(
  t: TaskModel,
  entries: { rel: string; size: number }[],
  listPos: number,
  ended: boolean,
  l: EngineLimits = DEFAULT_LIMITS,
): void {
  compact(t);
  for (const e of entries) t.files.push(job(t.nextSeq++, e, l));
  t.fed += entries.length;
  t.listPos = listPos;
  t.listEnded = ended;
  settleIfFinished(t);
}

const settled = (f: FileJob) => f.state === 'done' || f.state === 'failed';

/** Settled files leave the window: done ones are only counted, failed ones are kept aside. */
export function compact(t: TaskModel): void {
  if (!t.files.some(settled)) return;
  const keep: FileJob[] = [];
  for (const f of t.files) {
    if (f.state === 'done') {
      t.droppedDone++;
      t.droppedBytes += f.size;
    } else if (f.state === 'failed') t.failed.push(f);
    else keep.push(f);
  }
  t.files = keep;
}

/** The file of this `seq` while it is in the window (binary search: `files` is in ascending `seq`). */
export function fileOf(t: TaskModel, seq: number): FileJob | undefined {
  let lo = 0;
  let hi = t.files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = t.files[mid]!;
    if (f.seq === seq) return f;
    if (f.seq < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Files that failed for good, in the window or out of it. */
export const failedFiles = (t: TaskModel) => [...t.failed, ...t.files.filter((f) => f.state === 'failed')];

/** A task saved by a client before the window (every file in `files`, a `cursor`): read as a fed, ended list. */
export function upgrade(t: TaskModel): TaskModel {
  if (typeof t.fed === 'number') return t;
  t.files.forEach((f, i) => (f.seq = i));
  Object.assign(t, {
    failed: [],
    filesTotal: t.files.length,
    droppedDone: 0,
    droppedBytes: 0,
    fed: t.files.length,
    listPos: 0,
    listEnded: true,
    nextSeq: t.files.length,
  });
  delete (t as { cursor?: number }).cursor;
  return t;
}

const backoff = (attempts: number, l: EngineLimits) =>
  backoffMs(attempts, { baseMs: l.backoffBaseMs, maxMs: l.backoffMaxMs });

function settleIfFinished(t: TaskModel): void {
  if (!t.listEnded) return;
  for (const f of t.files) if (!settled(f)) return;
  if (t.state === S.stopping) t.state = S.stopped;
  if (!RUNNING.includes(t.state)) return;
  const failed = t.failed[0] ?? t.files.find((f) => f.state === 'failed');
  t.state = failed ? S.failed : S.successful;
  if (failed) t.error ??= failed.error;
}

function inFlight(t: TaskModel): boolean {
  if (t.batchesInFlight > 0) return true;
  for (const f of t.files) {
    if (f.state === 'opening' || f.state === 'finalizing') return true;
    if (f.mode === 'ranges' && f.ranges.some((r) => r.state === 'flight')) return true;
  }
  return false;
}

/** stopping → stopped once nothing is in flight any more. */
function settleStopping(t: TaskModel): void {
  if (t.state === S.stopping && !inFlight(t)) t.state = S.stopped;
}

/** Begins (or continues) a task: it waits for login information when the client has none. */
export function start(t: TaskModel, loggedIn: boolean, now: number): void {
  if (FINISHED.includes(t.state)) return;
  t.state = loggedIn ? S.started : S.waitLoginInfo;
  t.error = null;
  t.updatedAt = now;
  settleIfFinished(t);
}

/**
 * After a restart of the client (or a lost connection): nothing is in flight any more. `server`, the answer of the
 * one status call, is the truth for uploads: a file is done when the server has it final, and a range is done only
 * when the server stored it. Ranges the server does not know are sent again, even those the client believed sent.
 */
export function recover(
  t: TaskModel,
  server: Map<string, { id: string; done: boolean; ranges: number[] }> | null,
  now: number,
): void {
  for (const f of t.files) {
    if (f.state === 'done' && !server) continue;
    if (f.state === 'failed') continue;
    // A restart is a fresh start: attempts lost to an outage do not count towards failing the file.
    f.finalizeAttempts = 0;
    for (const r of f.ranges) {
      if (r.state === 'flight') r.state = 'todo';
      r.attempts = 0;
      r.retryAt = 0;
    }
    if (f.state === 'opening' || f.state === 'finalizing') f.state = f.remoteId ? 'active' : 'todo';
    if (!server) continue;
    const s = server.get(f.rel);
    if (!s) {
      if (f.state === 'done') continue;
      f.remoteId = null;
      f.state = 'todo';
      for (const r of f.ranges) r.state = 'todo';
      continue;
    }
    if (s.done) {
      f.state = 'done';
      for (const r of f.ranges) r.state = 'done';
      continue;
    }
    f.remoteId = f.mode === 'ranges' ? s.id : null;
    f.state = f.mode === 'ranges' ? 'active' : 'todo';
    const stored = new Set(s.ranges);
    f.ranges.forEach((r, n) => (r.state = f.mode === 'ranges' && stored.has(n) ? 'done' : 'todo'));
  }
  t.batchesInFlight = 0;
  recount(t);
  if (!FINISHED.includes(t.state) && t.state !== S.stopped) t.state = S.recover;
  t.updatedAt = now;
}

function recount(t: TaskModel): void {
  let bytes = t.droppedBytes;
  let files = t.droppedDone;
  for (const f of t.files) {
    if (f.state === 'done') {
      bytes += f.size;
      files++;
    } else f.ranges.forEach((r, n) => (bytes += r.state === 'done' ? rangeBytes(f, n) : 0));
  }
  t.bytesDone = bytes;
  t.filesDone = files;
  settleIfFinished(t);
}

/**
 * What to send now, within the limits, marking it in flight. Nothing while the task is not running. Large files are
 * opened in groups, then their ranges go out (several per file, several files); small files go out in tar batches;
 * a file whose ranges are all stored is finalized.
 */
export function nextWork(t: TaskModel, now: number, l: EngineLimits = DEFAULT_LIMITS): Work[] {
  if (t.state === S.recover || t.state === S.ready) t.state = S.started;
  if (t.state !== S.started) return [];
  compact(t);
  const work: Work[] = [];
  let streams = 0;
  let opening = false;
  /** Large files holding a server-side partial (or, for downloads, a local one) that are not finished. */
  const activeFiles = new Set<number>();
  for (const f of t.files) {
    if (f.state === 'opening') opening = true;
    if (f.mode !== 'ranges' || (f.state !== 'active' && f.state !== 'finalizing')) continue;
    activeFiles.add(f.seq);
    for (const r of f.ranges) if (r.state === 'flight') streams++;
  }
  let batches = t.batchesInFlight;
  const toOpen: number[] = [];
  let batch: number[] = [];
  let batchBytes = 0;
  const flushBatch = () => {
    if (!batch.length) return;
    work.push({ type: 'batch', files: batch });
    batches++;
    batch = [];
    batchBytes = 0;
  };
  for (const f of t.files) {
    const i = f.seq;
    if (f.state === 'done' || f.state === 'failed' || f.state === 'opening' || f.state === 'finalizing')
      continue;
    if (f.mode === 'batch') {
      const r = f.ranges[0]!;
      if (r.state !== 'todo' || r.retryAt > now || batches >= l.batchesInFlight) continue;
      r.state = 'flight';
      r.attempts++;
      batch.push(i);
      batchBytes += f.size;
      if (batch.length >= l.batchFiles || batchBytes >= l.batchBytes) flushBatch();
      continue;
    }
    if (f.state === 'todo') {
      // A new large file starts only while fewer than filesInFlight are under way.
      if (activeFiles.size + toOpen.length >= l.filesInFlight || f.retryAt > now) continue;
      if (t.kind === 'upload' && f.remoteId === null) {
        if (!opening) toOpen.push(i);
        continue;
      }
      f.state = 'active';
      activeFiles.add(i);
    }
    const todo = f.ranges.findIndex((r) => r.state !== 'done');
    if (todo === -1) {
      if (f.retryAt <= now) {
        f.state = 'finalizing';
        work.push({ type: 'finalize', file: i });
      }
      continue;
    }
    let perFile = 0;
    for (const r of f.ranges) if (r.state === 'flight') perFile++;
    for (let n = todo; n < f.ranges.length && perFile < l.streamsPerFile && streams < l.streamsTotal; n++) {
      const r = f.ranges[n]!;
      if (r.state !== 'todo' || r.retryAt > now) continue;
      r.state = 'flight';
      r.attempts++;
      perFile++;
      streams++;
      work.push({ type: 'range', file: i, n, ...rangeBounds(f, n) });
    }
  }
  flushBatch();
  t.batchesInFlight = batches;
  if (toOpen.length) {
    for (const i of toOpen) fileOf(t, i)!.state = 'opening';
    work.push({ type: 'open', files: toOpen });
  }
  return work;
}

/** The server's answer to `open`: the id of each partial file and the ranges it already holds (or done). */
export function opened(
  t: TaskModel,
  results: { file: number; id: string; done: boolean; ranges: number[] }[],
  now: number,
): void {
  for (const r of results) {
    const f = fileOf(t, r.file);
    if (f?.state !== 'opening') continue;
    f.remoteId = r.id;
    f.state = 'active';
    if (r.done) markDone(t, f);
    else for (const n of r.ranges) if (f.ranges[n] && f.ranges[n].state !== 'done') rangeStored(t, f, n);
  }
  t.updatedAt = now;
  settleIfFinished(t);
  settleStopping(t);
}

function rangeStored(t: TaskModel, f: FileJob, n: number) {
  f.ranges[n]!.state = 'done';
  t.bytesDone += rangeBytes(f, n);
}

function markDone(t: TaskModel, f: FileJob) {
  for (let n = 0; n < f.ranges.length; n++) if (f.ranges[n]!.state !== 'done') rangeStored(t, f, n);
  f.state = 'done';
  t.filesDone++;
}

function failFile(t: TaskModel, f: FileJob, error: string) {
  for (const r of f.ranges) if (r.state === 'flight') r.state = 'todo';
  f.state = 'failed';
  f.error = error;
  void t;
}

/** A failure of opening these files: retried with backoff, up to maxAttempts. */
export function openFailed(
  t: TaskModel,
  files: number[],
  error: string,
  now: number,
  l = DEFAULT_LIMITS,
  permanent = false,
) {
  for (const i of files) {
    const f = fileOf(t, i);
    if (f?.state !== 'opening') continue;
    f.finalizeAttempts++;
    if (permanent || f.finalizeAttempts >= l.maxAttempts) failFile(t, f, error);
    else {
      f.state = 'todo';
      f.retryAt = now + backoff(f.finalizeAttempts, l);
    }
  }
  t.updatedAt = now;
  settleIfFinished(t);
  settleStopping(t);
}

export function rangeDone(t: TaskModel, file: number, n: number, now: number): void {
  const f = fileOf(t, file);
  if (f?.ranges[n]?.state === 'flight') rangeStored(t, f, n);
  t.updatedAt = now;
  settleStopping(t);
}

/**
 * A range that failed goes back to the queue after a backoff; after maxAttempts the file fails (the task goes on
 * with the others). `permanent` (refused by the server: permission, space) fails the file at once.
 */
export function rangeFailed(
  t: TaskModel,
  file: number,
  n: number,
  error: string,
  now: number,
  l: EngineLimits = DEFAULT_LIMITS,
  permanent = false,
): void {
  const f = fileOf(t, file);
  const r = f?.ranges[n];
  if (!f || r?.state !== 'flight') return;
  if (permanent || r.attempts >= l.maxAttempts) failFile(t, f, error);
  else {
    r.state = 'todo';
    r.retryAt = now + backoff(r.attempts, l);
  }
  t.updatedAt = now;
  settleIfFinished(t);
  settleStopping(t);
}

/** A tar batch's outcome: files stored (verified by the server), and failed ones (retried with backoff). */
export function batchDone(
  t: TaskModel,
  stored: number[],
  failed: { file: number; error: string; permanent?: boolean }[],
  now: number,
  l: EngineLimits = DEFAULT_LIMITS,
): void {
  t.batchesInFlight = Math.max(0, t.batchesInFlight - 1);
  for (const i of stored) {
    const f = fileOf(t, i);
    if (f?.ranges[0]!.state === 'flight') markDone(t, f);
  }
  for (const x of failed) rangeFailed(t, x.file, 0, x.error, now, l, x.permanent);
  t.updatedAt = now;
  settleIfFinished(t);
  settleStopping(t);
}

export function finalizeDone(t: TaskModel, file: number, now: number): void {
  const f = fileOf(t, file);
  if (f?.state !== 'finalizing') return;
  markDone(t, f);
  t.updatedAt = now;
  settleIfFinished(t);
  settleStopping(t);
}

/**
 * Finalize failed. `mismatch`: the checksum differed, so the partial file is wrong somewhere: every range is sent
 * again (Globus re-sends until the checksums match); the server dropped its record of the stored ranges. `missing`:
 * the server lacks these ranges (a later send of a range un-verified it, or its record predates range checks): only
 * they are sent again, at once, and the attempt does not count (the file makes progress). Otherwise (a lost
 * connection) finalize is retried after a backoff.
 */
export function finalizeFailed(
  t: TaskModel,
  file: number,
  error: string,
  mismatch: boolean,
  now: number,
  l: EngineLimits = DEFAULT_LIMITS,
  permanent = false,
  missing: number[] = [],
): void {
  const f = fileOf(t, file);
  if (f?.state !== 'finalizing') return;
  const lacking = missing.filter((n) => f.ranges[n]?.state === 'done');
  if (!mismatch && !permanent && lacking.length > 0) {
    f.state = 'active';
    f.retryAt = now;
    for (const n of lacking) {
      t.bytesDone -= rangeBytes(f, n);
      f.ranges[n]!.state = 'todo';
      f.ranges[n]!.attempts = 0;
      f.ranges[n]!.retryAt = now;
    }
  } else {
    f.finalizeAttempts++;
    if (permanent || f.finalizeAttempts >= l.maxAttempts) failFile(t, f, error);
    else {
      f.state = 'active';
      f.retryAt = now + (mismatch ? 0 : backoff(f.finalizeAttempts, l));
      if (mismatch) {
        f.ranges.forEach((r, n) => {
          if (r.state === 'done') t.bytesDone -= rangeBytes(f, n);
          r.state = 'todo';
          r.attempts = 0;
        });
      }
    }
  }
  t.updatedAt = now;
  settleIfFinished(t);
  settleStopping(t);
}

/** Pause: nothing new is sent; stopped once what is in flight has come back. */
export function pause(t: TaskModel, now: number): void {
  if (FINISHED.includes(t.state) || t.state === S.stopped) return;
  t.state = S.stopping;
  t.updatedAt = now;
  settleStopping(t);
}

export function resume(t: TaskModel, loggedIn: boolean, now: number): void {
  if (
    t.state !== S.stopped &&
    t.state !== S.stopping &&
    t.state !== S.authFailed &&
    t.state !== S.proxyClosed
  )
    return;
  // A failed range's backoff starts over: the user asked for it now.
  for (const f of t.files) {
    f.retryAt = 0;
    for (const r of f.ranges) r.retryAt = 0;
  }
  start(t, loggedIn, now);
}

/** Retry a failed task: its failed files start over (their stored ranges stay; open asks the server again). */
export function retry(t: TaskModel, loggedIn: boolean, now: number): void {
  if (t.state !== S.failed) return;
  compact(t);
  // Back into the window under new numbers: an answer still on its way about the failed attempt finds nothing.
  const again = t.failed;
  t.failed = [];
  for (const f of again) {
    f.seq = t.nextSeq++;
    t.files.push(f);
    f.state = 'todo';
    f.remoteId = t.kind === 'upload' && f.mode === 'ranges' ? null : f.remoteId;
    f.finalizeAttempts = 0;
    f.error = null;
    for (const r of f.ranges) {
      r.attempts = 0;
      r.retryAt = 0;
    }
  }
  recount(t);
  t.state = S.todo;
  start(t, loggedIn, now);
}

export function cancel(t: TaskModel, now: number): void {
  if (t.state === S.successful) return;
  t.state = S.failed;
  t.error = 'cancelled';
  t.updatedAt = now;
}

/** The servers refused the token: the task waits for a new login (state 12). */
export function authFailed(t: TaskModel, now: number): void {
  if (FINISHED.includes(t.state)) return;
  t.state = S.authFailed;
  t.updatedAt = now;
}

/** No server of the cluster answers (state 13); resumed when one does. */
export function serversUnreachable(t: TaskModel, now: number): void {
  if (FINISHED.includes(t.state)) return;
  t.state = S.proxyClosed;
  t.updatedAt = now;
}

export const isFinished = (t: TaskModel) => FINISHED.includes(t.state);
export const isRunning = (t: TaskModel) => RUNNING.includes(t.state) || t.state === S.stopping;
