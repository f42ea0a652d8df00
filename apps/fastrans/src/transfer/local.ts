import crypto from 'node:crypto';
import { close, constants as fsConstants, open, read } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { FastransCodes } from '@hpc/contracts';
import { FastransText } from '../messages';
import { fileThread } from './file-thread';
import { RemoteError } from './remote-error';

const rawOpen = promisify(open);
const rawClose = promisify(close);
const rawRead = promisify(read);

/**
 * The client's own file-system calls. It touches only what the user picked: uploads read below the picked items,
 * downloads write below the picked folder, and every relative path that comes from a server is checked to stay
 * there (no absolute path, no '..', no empty segment).
 */

export function safeRel(rel: string): string[] {
  const segs = rel.split('/');
  if (
    !rel ||
    rel.startsWith('/') ||
    segs.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))
  )
    throw new Error(`unsafe path from the server: ${rel}`);
  return segs;
}

export const localPath = (base: string, rel: string) => path.join(base, ...safeRel(rel));
export const partialOf = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.fastrans-part`);

export interface LocalEntry {
  rel: string;
  size: number;
  mtime: number;
}

/**
 * Files below a picked file or folder, relative to its parent (the folder's own name first), as they are found:
 * one open directory per level, nothing else held, so a folder of 1,000,000 files costs no memory here. Links are
 * skipped.
 */
export async function* walkLocal(picked: string): AsyncGenerator<LocalEntry> {
  const base = path.dirname(picked);
  const rel = (p: string) => path.relative(base, p).split(path.sep).join('/');
  const top = await fs.lstat(picked);
  if (top.isFile()) {
    yield { rel: rel(picked), size: top.size, mtime: top.mtimeMs };
    return;
  }
  if (!top.isDirectory()) return;
  async function* visit(dir: string): AsyncGenerator<LocalEntry> {
    const d = await fs.opendir(dir, { bufferSize: 256 });
    let files: string[] = [];
    const subdirs: string[] = [];
    // The sizes of a folder's files are asked 64 at a time (one lstat after another was most of a walk's time).
    const sizes = async function* (names: string[]) {
      const stats = await Promise.all(names.map((p) => fs.lstat(p).catch(() => null)));
      for (let i = 0; i < names.length; i++) {
        const st = stats[i];
        if (st?.isFile()) yield { rel: rel(names[i]!), size: st.size, mtime: st.mtimeMs };
      }
    };
    for await (const e of d) {
      if (e.isFile()) files.push(path.join(dir, e.name));
      else if (e.isDirectory()) subdirs.push(path.join(dir, e.name));
      if (files.length >= 64) {
        yield* sizes(files);
        files = [];
      }
    }
    yield* sizes(files);
    for (const s of subdirs) yield* visit(s);
  }
  yield* visit(picked);
}

/** The name of this version of a local file: a changed file is a new upload, an unchanged one resumes. */
export const identifierOf = (file: string, size: number, mtime: number) =>
  crypto
    .createHash('sha256')
    .update(`${file}\0${size}\0${Math.floor(mtime)}`)
    .digest('hex')
    .slice(0, 32);

/**
 * Reads bytes start..end of a local file into `into` (when given, at least end - start long) or a new buffer, and
 * returns exactly those bytes.
 */
export async function readRange(file: string, start: number, end: number, into?: Buffer): Promise<Buffer> {
  // A plain descriptor: a batch reads 500 small files this way, and fs/promises' FileHandle cost more than the read.
  const fd = await rawOpen(file, 'r');
  try {
    const buf = into ? into.subarray(0, end - start) : Buffer.allocUnsafe(end - start);
    let off = 0;
    while (off < buf.length) {
      const { bytesRead } = await rawRead(fd, buf, off, buf.length - off, start + off);
      if (bytesRead === 0) throw new Error('the local file shrank');
      off += bytesRead;
    }
    return buf;
  } finally {
    await rawClose(fd);
  }
}

/**
 * Buffers for the ranges of large uploads, reused from one range to the next. A fresh 16 MiB buffer per range is
 * memory V8 reclaims only with full collections, triggered by the external memory it sees grow: measured on a 4 GiB
 * upload, 2.6 s of the runner's 8.5 CPU seconds were garbage collection. At most `keep` buffers of the usual size
 * are kept (one per stream in flight is all a task needs); an odd size is allocated and left to the GC.
 */
export class RangeBuffers {
  private readonly free: Buffer[] = [];
  constructor(
    private readonly size: number,
    private readonly keep = 8,
  ) {}

  /** A buffer of at least `length` bytes; give it back once nothing reads it any more. */
  take(length: number): Buffer {
    if (length > this.size) return Buffer.allocUnsafeSlow(length);
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  give(buf: Buffer): void {
    if (buf.length === this.size && this.free.length < this.keep) this.free.push(buf);
  }
}

export const sha256Of = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * The digest finalize checks for a file sent in ranges: SHA-256 over the 32-byte SHA-256s of ranges 0…n-1 in order
 * (a hash list). `known[n]` is range n's digest when it was hashed as it was sent; the others are read and hashed.
 */
export async function hashList(
  file: string,
  size: number,
  rangeSize: number,
  known: (string | undefined)[],
): Promise<string> {
  const list = crypto.createHash('sha256');
  const count = Math.max(1, Math.ceil(size / rangeSize));
  for (let n = 0; n < count; n++) {
    const start = n * rangeSize;
    const digest = known[n] ?? sha256Of(await readRange(file, start, Math.min(size, start + rangeSize)));
    list.update(Buffer.from(digest, 'hex'));
  }
  return list.digest('hex');
}

/** Where the system has them (not on Windows): no link followed, no wait on a FIFO. */
const NO_LINK = (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);

/** A file of the client's: hashed as it is, never through a link put in its place, never a FIFO. */
export async function sha256File(file: string): Promise<string> {
  const fh = await fs.open(file, fsConstants.O_RDONLY | NO_LINK);
  if (!(await fh.stat()).isFile()) {
    await fh.close();
    throw Object.assign(new Error(`${file} is not a file`), { code: 'EINVAL' });
  }
  const hash = crypto.createHash('sha256');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

/**
 * Opens a download's partial file, made on first use: only one of this client's own. Its name is known in advance
 * and the folder may be shared with other accounts (a project folder writable by a group), so what is found under
 * it may be theirs: a link to a file of the user's (`~/.bashrc`), which writing would overwrite; a second name (a
 * hard link) of such a file; a file of their own, which would receive the user's download and become the final
 * file, theirs to change. Opened without following a link and without waiting on a FIFO, then looked at as opened:
 * a regular file of one name, of this account. Anything else is refused; nothing is written.
 */
async function openPartial(partial: string): Promise<{ fh: fs.FileHandle; size: number }> {
  const refused = () => new RemoteError(FastransCodes.refused, FastransText.partialNotOwn(partial));
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(partial, fsConstants.O_RDWR | fsConstants.O_CREAT | NO_LINK, 0o666);
  } catch (e) {
    // A link in its place: O_NOFOLLOW's error says only "too many levels of symbolic links".
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw refused();
    throw e;
  }
  try {
    const st = await fh.stat();
    const uid = process.getuid?.();
    if (!st.isFile() || st.nlink !== 1 || (uid !== undefined && st.uid !== uid)) throw refused();
    return { fh, size: st.size };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** Writes at an offset of a preallocated partial file (created at its full size on first use). */
export async function writeAt(partial: string, size: number, offset: number, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(partial), { recursive: true });
  const { fh, size: had } = await openPartial(partial);
  try {
    if (had !== size) await fh.truncate(size);
    let off = 0;
    while (off < data.length) {
      const { bytesWritten } = await fh.write(data, off, data.length - off, offset + off);
      off += bytesWritten;
    }
  } finally {
    await fh.close();
  }
}

/** Gives a verified file its final name, never over an existing item unless asked (in the file thread: file-thread.ts). */
export const publishLocal = (from: string, to: string, overwrite: boolean): Promise<void> =>
  fileThread.publish(from, to, overwrite);

export const removeLocal = (p: string) => fs.rm(p, { force: true });
/**
 * Makes the folder `rel` below a download's `base` and checks that it is really there: a folder of that name that
 * is a link (to `~/.ssh`, to another disk) would carry the download's files out of the folder the user chose, so it
 * fails the download instead (ELOOP, the name of a link in the way).
 */
export async function ensureRealDir(base: string, rel: string, realBase?: string): Promise<string> {
  const dir = localPath(base, rel);
  await fs.mkdir(dir, { recursive: true });
  // The base's real path once per download (the caller hands back what the first folder returned).
  const real = realBase ?? (await fs.realpath(base));
  if ((await fs.realpath(dir)) !== path.join(real, ...safeRel(rel)))
    throw Object.assign(new Error(`${dir} is a link: the download does not follow it`), { code: 'ELOOP' });
  return real;
}
