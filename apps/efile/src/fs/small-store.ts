import crypto from 'node:crypto';
import fs, { constants } from 'node:fs';
import { promisify } from 'node:util';

/**
 * A group of small files of a fast-transfer batch stored in one held folder, run in efile's store thread
 * (store-thread.ts) with synchronous calls. Node builtins only: this module is the thread's whole bundle.
 *
 * Why a thread and synchronous calls: each asynchronous file-system call is a hand-off to the thread pool and a
 * wake-up back, and a small file made six of them (create, write, fdatasync, close, link, unlink). On the 2-vCPU VM
 * the wake-ups and task switches were a tenth of all CPU samples of a 10,000-file upload and the promises most of
 * efile's main thread (PERFORMANCE.md, "Small files: a group per call"). Here a file's calls cost the system calls
 * alone, off efile's event loop; only the fdatasyncs go to the pool, all of a group at once, so the journal commits
 * them together instead of one after another.
 */

export interface SmallFileIn {
  /** Final name in the folder, and the hidden temp name it is written under first (made by the caller). */
  name: string;
  tmp: string;
  data: Uint8Array;
  sha256: string;
}

/** What became of one file: stored, or why not (an errno code, a checksum mismatch, an item in the way). */
export type SmallOutcome =
  null | { errno: string; message: string } | { checksum: true } | { conflict: 'file' | 'folder' };

export interface SmallGroup {
  /** The anchored path of the held folder (a /proc/self/fd path: the same process, so valid in the thread). */
  dir: string;
  files: SmallFileIn[];
  overwrite: boolean;
  mode: number;
  /** A fchmod after the create, when the process's umask would take bits of `mode` away. */
  fixMode: boolean;
}

/**
 * A group as it travels to the thread: each file a span of one block. A batch read whole lives in shared memory
 * (tar-extract's readTarWhole), and its files are views of it: the block is that memory, shared with the thread, not
 * copied. Otherwise the files' bytes are copied into one block whose memory moves to the thread (a transfer, not a
 * copy). Sent as they were (a Uint8Array each), the structured clone of 10,000 small files took a fifth of efile's
 * main thread in a profile.
 */
export interface SmallGroupWire extends Omit<SmallGroup, 'files'> {
  block: Uint8Array;
  files: (Omit<SmallFileIn, 'data'> & { at: number; length: number })[];
}

export function packGroup(g: SmallGroup): SmallGroupWire {
  const shared = g.files[0]?.data.buffer;
  if (shared instanceof SharedArrayBuffer && g.files.every((f) => f.data.buffer === shared)) {
    const files = g.files.map(({ data, ...f }) => ({ ...f, at: data.byteOffset, length: data.length }));
    return { ...g, block: new Uint8Array(shared), files };
  }
  const block = new Uint8Array(g.files.reduce((n, f) => n + f.data.length, 0));
  let at = 0;
  const files = g.files.map(({ data, ...f }) => {
    block.set(data, at);
    at += data.length;
    return { ...f, at: at - data.length, length: data.length };
  });
  return { ...g, block, files };
}

export function unpackGroup(w: SmallGroupWire): SmallGroup {
  const { block, files, ...g } = w;
  return {
    ...g,
    files: files.map(({ at, length, ...f }) => ({ ...f, data: block.subarray(at, at + length) })),
  };
}

const fdatasync = promisify(fs.fdatasync);
const LINKLESS = ['EPERM', 'EXDEV', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP'];
const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? 'EIO';
const failure = (e: unknown): SmallOutcome => ({ errno: code(e), message: (e as Error).message });
const drop = (tmp: string) => {
  try {
    fs.unlinkSync(tmp);
  } catch {
    /* gone already */
  }
};
const CREATE = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;
/** A read never through a link, nor blocking on a FIFO swapped in. */
const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Reads from the start of `fd` until `into` is full or the file ends; the bytes read. */
function readFully(fd: number, into: Uint8Array): number {
  let got = 0;
  while (got < into.length) {
    const n = fs.readSync(fd, into, got, into.length - got, got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

function writeAll(fd: number, data: Uint8Array) {
  let at = 0;
  while (at < data.length) {
    const n = fs.writeSync(fd, data, at, data.length - at, at);
    if (n === 0) throw Object.assign(new Error('no progress writing'), { code: 'EIO' });
    at += n;
  }
}

/**
 * Whether `to` is a regular file holding exactly `data`: opened without following a link and without blocking on a
 * FIFO, its size first, then its bytes. An upload sent again into the folder it reached before (a re-run after an
 * interrupted command, as with rsync) then counts such a file as stored instead of failing it as "exists"; the
 * client's download does the same for its local files (FASTRANS.md, "A file already there, with the same bytes").
 */
function holds(to: string, data: Uint8Array): boolean {
  let fd: number;
  try {
    fd = fs.openSync(to, READ);
  } catch {
    return false;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size !== data.length) return false;
    const have = Buffer.allocUnsafe(data.length);
    return readFully(fd, have) === have.length && have.equals(data);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The look before a write: an lstat first (a missing name, the usual case, costs no open), then `holds`. Any error
 * (a name too long, a folder gone) is not an answer: the file goes the usual way, which reports it as its own.
 */
function alreadyThere(to: string, data: Uint8Array): boolean {
  try {
    const st = fs.lstatSync(to, { throwIfNoEntry: false });
    return !!st?.isFile() && st.size === data.length && holds(to, data);
  } catch {
    return false;
  }
}

/**
 * Gives a synced temp file its name: a link (never over an existing item) or, with `overwrite`, a rename over a file.
 * Without `overwrite`, a regular file already holding the same bytes is left as it is and the file counts as stored.
 */
function name(tmp: string, to: string, data: Uint8Array, overwrite: boolean): SmallOutcome {
  if (!overwrite) {
    try {
      fs.linkSync(tmp, to);
      fs.unlinkSync(tmp);
      return null;
    } catch (e) {
      if (code(e) === 'EEXIST') {
        const st = fs.lstatSync(to, { throwIfNoEntry: false });
        if (st?.isFile() && holds(to, data)) {
          drop(tmp);
          return null;
        }
        return { conflict: st?.isDirectory() ? 'folder' : 'file' };
      }
      // A file system without hard links: an existence check, then rename.
      if (!LINKLESS.includes(code(e))) throw e;
    }
  }
  const existing = fs.lstatSync(to, { throwIfNoEntry: false });
  if (existing && !overwrite && existing.isFile() && holds(to, data)) {
    drop(tmp);
    return null;
  }
  if (existing && (!overwrite || existing.isDirectory()))
    return { conflict: existing.isDirectory() ? 'folder' : 'file' };
  fs.renameSync(tmp, to);
  return null;
}

/**
 * Each file checked against its SHA-256 (a mismatch writes nothing) and, without `overwrite`, against a file already
 * holding its bytes under its name (nothing to write); created under its temp name with `mode`, written; then every
 * file of the group fdatasync'd at once; then each named. A file that fails at any step has its temp removed and its
 * own outcome; the others go on.
 */
export async function storeGroup(g: SmallGroup): Promise<SmallOutcome[]> {
  const out: SmallOutcome[] = g.files.map(() => null);
  const fds: (number | null)[] = g.files.map(() => null);
  g.files.forEach((f, i) => {
    if (crypto.createHash('sha256').update(f.data).digest('hex') !== f.sha256) {
      out[i] = { checksum: true };
      return;
    }
    // Already there with these bytes (an upload run again): stored, with no temp written and synced. An lstat per
    // file otherwise (~2 µs for a missing name, against ~7 for a failed open, whose error Node builds); a name taken
    // after this look is still caught when the temp is named.
    if (!g.overwrite && alreadyThere(`${g.dir}/${f.name}`, f.data)) return;
    const tmp = `${g.dir}/${f.tmp}`;
    let fd: number | null = null;
    try {
      fd = fs.openSync(tmp, CREATE, g.mode);
      writeAll(fd, f.data);
      if (g.fixMode) fs.fchmodSync(fd, g.mode);
      fds[i] = fd;
    } catch (e) {
      out[i] = failure(e);
      if (fd !== null) {
        fs.closeSync(fd);
        drop(tmp);
      }
    }
  });
  await Promise.all(
    fds.map(async (fd, i) => {
      if (fd === null) return;
      try {
        await fdatasync(fd);
      } catch (e) {
        out[i] = failure(e);
      }
    }),
  );
  g.files.forEach((f, i) => {
    const fd = fds[i];
    if (fd === null || fd === undefined) return;
    const tmp = `${g.dir}/${f.tmp}`;
    try {
      fs.closeSync(fd);
      if (out[i] === null) out[i] = name(tmp, `${g.dir}/${f.name}`, f.data, g.overwrite);
    } catch (e) {
      out[i] = failure(e);
    }
    if (out[i] !== null) drop(tmp);
  });
  return out;
}

/** One small file to read whole: its real path (as the resolver gave it) and at most this many bytes. */
export interface SmallRead {
  host: string;
  maxBytes: number;
}

/**
 * What a folder walk needs of an entry (lstat: a link is neither file nor folder), or null where it is gone or
 * unreadable.
 */
export type EntryStat = { kind: 'file' | 'dir' | 'other'; size: number; mtime: number } | null;

/**
 * The entries at `hosts` lstat'ed one after another: a walk's 64 entries of a folder at a time, one message to the
 * thread instead of 64 hand-offs to the thread pool (10,000 files: ~300 ms through the pool, PERFORMANCE.md, "The
 * thread pool, and the manifest").
 */
export function statGroup(hosts: string[]): EntryStat[] {
  return hosts.map((h) => {
    try {
      return entryStatOf(fs.lstatSync(h, { throwIfNoEntry: false }));
    } catch {
      return null;
    }
  });
}

/** An lstat as a walk needs it (the one mapping for the store threads and the thread pool's walk). */
export const entryStatOf = (st: fs.Stats | null | undefined): EntryStat =>
  st
    ? { kind: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other', size: st.size, mtime: st.mtimeMs }
    : null;

/**
 * What one read gave: the bytes and their SHA-256 (hashed here, off efile's event loop), or why not (an errno code,
 * not a regular file, not where its folder is).
 */
export type ReadOutcome =
  | { data: Uint8Array; sha256: string }
  | { errno: string; message: string }
  | { notRegular: true }
  | { moved: true };

/**
 * Small files of a download batch read whole, each with the checks of file-ops' `openForReadSized`: opened without
 * following a link (O_NONBLOCK: a FIFO swapped in does not hang the thread), a regular file, and the opened file's
 * real path (its /proc/self/fd link) the path asked for, so a folder swapped for a link meanwhile is not read.
 * Five calls a file, each a system call here instead of a hand-off to the thread pool; then the bytes' SHA-256, which
 * the batch's manifest carries.
 */
export function readGroup(files: SmallRead[]): ReadOutcome[] {
  return files.map((f) => {
    let fd: number | null = null;
    try {
      fd = fs.openSync(f.host, READ);
      const st = fs.fstatSync(fd);
      if (!st.isFile()) return { notRegular: true };
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== f.host) return { moved: true };
      const want = Math.min(st.size, f.maxBytes);
      const data = new Uint8Array(want);
      const got = readFully(fd, data);
      const read = got === want ? data : data.subarray(0, got);
      return { data: read, sha256: crypto.createHash('sha256').update(read).digest('hex') };
    } catch (e) {
      return failure(e) as ReadOutcome;
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
  });
}
