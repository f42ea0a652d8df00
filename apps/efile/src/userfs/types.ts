import type { Writable } from 'node:stream';
import type { FileEntry } from '@hpc/contracts';
import type { ListOptions } from '../fs/listing';
import type { ResolveOptions, UserScope } from '@hpc/cluster-kit';
import type { Progress } from '../fs/copy-tree';
import type { HomeUsageCount } from '../fs/home-usage';
import type { SmallFileRead } from '../fs/small-files';
import type { WalkEntry } from '../fs/transfer-ops';

export type { WalkEntry };

/**
 * Who an operation runs as and where it may go: the cluster user name (whose worker runs it in unix mode) and the
 * cluster roots the resolver confines it to. A portal user's token gives both; a share runs as its owner with the
 * shared item as its only root; a Linux-command token as its user with its folder.
 */
export interface FsScope extends UserScope {
  cun: string;
}

/** The JSON-safe part of an lstat (crosses the worker boundary). */
export interface StatInfo {
  isDir: boolean;
  isFile: boolean;
  isLink: boolean;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
  dev: number;
  ino: number;
}

/** One file of `readSmall`: its bytes and their SHA-256, or efile's error code for it. */
export type SmallReadResult = SmallFileRead | { code: string };

/** A resolved path (see `PathResolver.resolve`) with a JSON-safe stat. */
export interface Info {
  clusterPath: string;
  host: string;
  parentHost: string;
  name: string;
  root: string;
  stat: StatInfo | null;
}

/** An open regular file to send: its size and time, and its bytes on demand. */
export interface ReadHandle {
  size: number;
  mtimeMs: number;
  /** Writes bytes start..end (inclusive) to `out` from pooled blocks; resolves when sent or the client left. */
  pipeTo(out: Writable, start: number, end: number): Promise<void>;
  /**
   * Fills `into` with the bytes from `position` on, and resolves with how many there were (fewer only where the
   * file ends): a range read whole (a fast-transfer range with its digest), read straight into it where the file is
   * open in this process, without a stream of blocks copied on.
   */
  readAt(into: Buffer, position: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * What a user's worker writes itself on a client connection handed over to it (unix mode, the cluster kit's
 * handoff.ts): a range of a file the front end has stat'ed (the worker checks it is still that file), or a zip laid
 * out in the worker.
 */
export type ServeJob =
  | { kind: 'read'; scope: FsScope; host: string; start: number; end: number; size: number; mtimeMs: number }
  | { kind: 'zip'; id: string };

/** A zip of a selection, laid out (its exact size known) before the first byte. */
export interface ZipHandle {
  size: number;
  fileCount: number;
  totalSize: number;
  writeTo(out: Writable): Promise<void>;
  close(): Promise<void>;
}

/** An upload's partial file held open between chunks. */
export interface PartialHandle {
  write(data: AsyncIterable<Buffer>, offset: number): Promise<void>;
  /**
   * Makes what was written durable (fdatasync): a fast-transfer range is recorded as verified only after this, since
   * finalize trusts the record instead of reading the file again.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** What a tar upload placed and what it skipped (entry names as in the archive). */
export interface TarResult {
  files: number;
  dirs: number;
  skipped: string[];
  bytes: number;
}

export interface TransferItem {
  src: Info;
  dst: Info;
}

/**
 * Every operation on a user's files (issue 10 §1). Services keep the rules (sessions, shares, locks, names) and
 * call this for the files themselves; no service touches `node:fs` on user files. `LocalUserFs` runs the calls in
 * this process (single mode, and inside each worker); `WorkerUserFs` sends them to the worker process of the
 * scope's user (unix mode), where the kernel checks every call against that user's uid and groups.
 * Every failure is an `AppError` with the spec's code (errno mapped by `fsError`).
 */
export interface UserFs {
  resolve(s: FsScope, path: string, opts?: ResolveOptions): Promise<Info>;
  list(
    s: FsScope,
    path: string,
    opts: ListOptions,
  ): Promise<{ path: string; list: FileEntry[]; total: number }>;
  mkdir(s: FsScope, path: string): Promise<string>;
  touch(s: FsScope, path: string): Promise<string>;
  /** Resolves every path first (a bad one changes nothing), then removes them; returns their cluster paths. */
  remove(s: FsScope, paths: string[], recursive: boolean): Promise<string[]>;
  rename(s: FsScope, path: string, newName: string): Promise<{ from: string; to: string }>;
  exist(s: FsScope, path: string): Promise<{ exist: boolean; isDirectory: boolean }>;
  tree(
    s: FsScope,
    path: string,
  ): Promise<{ list: { name: string; path: string; isLeaf: boolean }[]; truncated: boolean }>;
  /** The kernel's answer for this user (access(2) in unix mode); false for anything the resolver refuses. */
  access(s: FsScope, path: string, action: 'read' | 'write'): Promise<boolean>;
  /** The home's used space and most recently modified files, counted as the user (the Dashboard, features/usage). */
  homeUsage(s: FsScope, home: string): Promise<HomeUsageCount>;

  /** The first `maxBytes` of a regular file (text preview); `head` only reads the first 8 KiB. */
  readFile(s: FsScope, host: string, maxBytes: number): Promise<Buffer>;
  /**
   * The files of a fast-transfer download batch read whole (at most `maxBytes` each; the batch asks for 32 at once),
   * each with its SHA-256, or the error code of why not (the file gone, not a regular file, moved, denied). Read in
   * the store threads with the checks of file-ops' `openForReadSized`; in unix mode one request to the worker for
   * all of them, their bytes in its answer. An error that is not a file's own (the worker gone) fails the call.
   */
  readSmall(s: FsScope, hosts: string[], maxBytes: number): Promise<SmallReadResult[]>;
  /**
   * Atomically replaces a file's content (temp sibling, fsync, rename). With `expectedMtime` (ms, rounded) the file
   * must still have that mtime just before the rename, else "1028" and nothing is written (an edit's lost update).
   */
  writeFile(s: FsScope, path: string, data: string, expectedMtime?: number | null): Promise<string>;
  /** Opens a regular file to send (O_NOFOLLOW|O_NONBLOCK, fstat, checked to be where the resolver saw it). */
  openRead(s: FsScope, host: string): Promise<ReadHandle>;
  /** Walks a selection (links followed only to files inside the roots) and lays out its zip; "1508" past the limit. */
  openZip(s: FsScope, items: { host: string; name: string }[], fileLimit: number): Promise<ZipHandle>;

  /** Creates a missing folder (EEXIST is fine), for folder uploads and tar extraction. */
  ensureDir(s: FsScope, path: string): Promise<Info>;
  /** Opens (creating) an upload's partial file: never a link, never a FIFO. */
  openPartial(s: FsScope, host: string): Promise<PartialHandle>;
  /**
   * Truncates to `size`, fsyncs and renames the partial into place (over a file only with `overwrite`); "1021"/"1023"
   * when the name is taken, the partial then kept for a retry (with overwrite, or once the name is free).
   */
  finalizePartial(
    s: FsScope,
    args: { target: string; partialName: string; expectedPartial: string; size: number; overwrite: boolean },
  ): Promise<void>;
  /** Removes a file by its host path (partials of cancelled and swept uploads); a missing one is fine. */
  unlink(s: FsScope, host: string): Promise<void>;
  /**
   * Creates (or reopens) an upload's partial file (its name ends with PARTIAL_SUFFIX; never a link) and gives it its
   * final size at once (fast transfer writes ranges at their offsets; a full disk shows now, not after hours).
   */
  preparePartial(s: FsScope, host: string, size: number): Promise<void>;
  /** Size of the regular file at `host` (no link followed), or null when there is none. */
  fileSize(s: FsScope, host: string): Promise<number | null>;
  /** SHA-256 and size of a regular file, read sequentially. */
  sha256(s: FsScope, host: string): Promise<{ sha256: string; size: number }>;
  /**
   * Stores one small file of a fast-transfer batch, whole in memory, in the folder `dirHost` under `name`: checked
   * against `sha256` first (a mismatch writes nothing, "1010"), hidden temp name, fsync, then the name (never over an
   * existing item unless `overwrite`, never over a folder: "1021"/"1023"). Called up to 64 at once per batch: the
   * implementation keeps each folder open (anchored, checked once) while files are being stored in it and a moment
   * after, so a small file costs its own calls only (in the worker in unix mode, the same inside the worker).
   */
  storeSmall(
    s: FsScope,
    dirHost: string,
    name: string,
    data: Buffer[],
    sha256: string,
    overwrite: boolean,
  ): Promise<void>;
  /**
   * Every folder and file under `host` depth-first (paths relative to `baseHost`), links and efile's own partial and
   * temp files skipped, never the whole tree in memory; in groups (a folder, or up to 64 of its files), each group an
   * NDJSON line from a worker.
   */
  walk(s: FsScope, host: string, baseHost: string): AsyncIterable<WalkEntry[]>;
  /** Streams a body into a new file at `path` (temp sibling, fsync, rename); returns the bytes written. */
  writeStream(s: FsScope, path: string, body: AsyncIterable<Buffer>, overwrite: boolean): Promise<number>;

  /** Copies or moves planned items, reporting progress; stops at the signal. */
  transfer(
    s: FsScope,
    args: { kind: 'copy' | 'move'; items: TransferItem[]; cover: boolean; id: string },
    progress: (p: Progress & { bytesTotal?: number; filesTotal?: number }) => void,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * Resolves a path (links followed) and names the item behind it for shares: device, inode and birth time in
   * nanoseconds (statx), and whether it is a folder. Runs as the scope's user, like every other look.
   */
  identify(s: FsScope, path: string): Promise<{ info: Info; identity: string; isDir: boolean }>;
  /**
   * Extracts a tar stream into the folder `base` (a Linux-command upload): read whole into a hidden staging folder
   * first, then its folders made and files renamed into place; entries that cannot be placed are listed as skipped.
   */
  extractTar(s: FsScope, base: string, body: AsyncIterable<Buffer>, overwrite: boolean): Promise<TarResult>;
  /**
   * Removes the tar staging folders (`.tar.<id>.efile-part`) an interrupted extraction left in the folder `dirHost`,
   * those not written in since `olderThanMs` (never a link, nothing else); returns how many went (the sweep).
   */
  sweepStaging(s: FsScope, dirHost: string, olderThanMs: number): Promise<number>;
  /** Stops background work (open uploads, workers). */
  close(): Promise<void>;
}
