import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import type { Resolved } from '../../fs/path-resolver';
import { errno } from '../../fs/errno';
import { conflictError, fsError, openForRead, renameNoReplace, replaceFile } from '../../fs/file-ops';
import { lookupUser } from '../../fs/owners';
import { tempName, TEMP_SUFFIX, isInternalName } from '../../fs/names';
import { writeStreamAt } from '../../fs/write-at';
import { atFolder, atHost } from '../../fs/anchored';
import { sendFile } from '../../fs/file-send';

/**
 * Every file-system call of the fast-transfer feature, in one module, so that they can move onto the per-user worker
 * layer as one piece. Callers pass host paths that the path resolver produced (real, inside the user's roots); the
 * final component is opened with O_NOFOLLOW and renames go through the anchored helpers of `fs/file-ops`.
 */

const noSpace = (e: unknown) => errno(e) === 'ENOSPC' || errno(e) === 'EDQUOT';
const mapError = (e: unknown): never => {
  if (isAppError(e)) throw e;
  if (noSpace(e)) throw new AppError(FileCodes.noSpace);
  return fsError(e);
};

/** Whether the compute user `cun` may create entries in the folder `dirHost` (owner/group/other bits). */
export async function canWrite(dirHost: string, cun: string): Promise<boolean> {
  let st;
  try {
    st = await fs.stat(dirHost);
  } catch {
    return false;
  }
  if (!st.isDirectory()) return false;
  const u = lookupUser(cun);
  if (!u)
    return fs.access(dirHost, constants.W_OK | constants.X_OK).then(
      () => true,
      () => false,
    );
  if (u.uid === 0) return true;
  const bits = st.uid === u.uid ? (st.mode >> 6) & 7 : st.gid === u.gid ? (st.mode >> 3) & 7 : st.mode & 7;
  return (bits & 3) === 3;
}

/** Creates a folder (an existing folder is fine, anything else there is "1022"). */
export async function makeFolder(host: string): Promise<void> {
  await fs.mkdir(host, { mode: 0o755 }).catch(async (e: unknown) => {
    if (errno(e) !== 'EEXIST') return mapError(e);
    const st = await fs.lstat(host);
    if (!st.isDirectory()) throw new AppError(FileCodes.notAFolder, 'A file is in the way of a folder');
  });
}

/**
 * Creates (or reopens) the hidden partial file of an upload and gives it its final size at once: the ranges are
 * written at their offsets, so nothing is assembled at the end (rclone's way), and a full disk shows now, not
 * after hours.
 */
export async function preparePartial(partialHost: string, size: number): Promise<void> {
  // Reached through its folder's descriptor (anchored): a parent swapped for a link since the check is refused.
  const fh = await atHost(partialHost, (p) =>
    fs.open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o600),
  ).catch(mapError);
  try {
    const st = await fh.stat();
    if (!st.isFile())
      throw new AppError(FileCodes.permissionDenied, 'The partial file is not a regular file');
    if (st.size !== size) await fh.truncate(size).catch(mapError);
  } finally {
    await fh.close();
  }
}

/**
 * Writes exactly `length` bytes of `body` at `offset` of the partial, hashing them in the same pass, and makes them
 * durable (fdatasync) before answering: the caller records the range as verified on this answer, and finalize
 * trusts that record instead of reading the file again, so a record must never outlive the bytes in a crash of the
 * machine. Null when the body was shorter or longer. `abandon` is asked before each write: true stops (the range's
 * lock was lost, someone else may be writing these bytes now).
 */
export async function writeRange(
  partialHost: string,
  offset: number,
  length: number,
  body: AsyncIterable<Buffer>,
  abandon: () => boolean = () => false,
): Promise<{ sha256: string } | null> {
  const fh = await atHost(partialHost, (p) => fs.open(p, constants.O_WRONLY | constants.O_NOFOLLOW)).catch(
    mapError,
  );
  const hash = crypto.createHash('sha256');
  let seen = 0;
  let over = false;
  async function* counted() {
    for await (const piece of body) {
      if (abandon()) throw new AppError(CommonCodes.unavailable, 'The range was taken over by another send');
      if (seen + piece.length > length) {
        over = true;
        const head = piece.subarray(0, Math.max(0, length - seen));
        hash.update(head);
        yield head;
        seen = length + 1;
        return;
      }
      seen += piece.length;
      hash.update(piece);
      yield piece;
    }
  }
  try {
    await writeStreamAt(fh, counted(), offset).catch(mapError);
    if (over || seen !== length) return null;
    await fh.datasync().catch(mapError);
  } finally {
    await fh.close();
  }
  return { sha256: hash.digest('hex') };
}

/** SHA-256 of a file, read sequentially in 1 MiB blocks. */
export async function sha256Of(host: string): Promise<{ sha256: string; size: number }> {
  const fh = await openForRead(host);
  const hash = crypto.createHash('sha256');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * fsync, mode 0644, then the final name: never over an existing item unless `overwrite` (and never a folder). `open`
 * is the temp file's descriptor when the caller still holds it (a tar batch): it is used and closed here, which
 * spares a small file an open and a close.
 */
export async function publish(
  fromHost: string,
  target: Resolved,
  overwrite: boolean,
  open?: FileHandle,
): Promise<void> {
  const fh = open ?? (await fs.open(fromHost, constants.O_RDWR | constants.O_NOFOLLOW).catch(mapError));
  try {
    await fh.chmod(0o644);
    await fh.sync();
  } finally {
    await fh.close();
  }
  const existing = await fs.lstat(target.host).catch(() => null);
  if (existing && (!overwrite || existing.isDirectory())) throw conflictError(existing.isDirectory());
  if (existing) await replaceFile(fromHost, target.host);
  else await renameNoReplace(fromHost, target.host, false);
}

export const removeQuietly = (host: string) => fs.unlink(host).catch(() => undefined);

/** Size of a regular file at `host` (no link followed), or null. */
export async function fileSize(host: string): Promise<number | null> {
  const st = await fs.lstat(host).catch(() => null);
  return st?.isFile() ? st.size : null;
}

/**
 * Writes one small file of a tar batch to a hidden temp sibling while hashing it; returns the temp path, with its
 * descriptor still open, when the hash is the one the client sent. A mismatch leaves nothing behind ("1010").
 * `publish` then syncs it, closes it and gives it its name: the batch runs those several at once, since one fsync
 * after another is most of a small file's cost.
 */
export async function writeVerifiedTemp(
  target: Resolved,
  data: AsyncIterable<Buffer> | Iterable<Buffer>,
  sha256: string,
): Promise<{ tmp: string; fh: FileHandle }> {
  const tmp = path.join(target.parentHost, tempName(target.name, TEMP_SUFFIX));
  const fh = await fs
    .open(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR | constants.O_NOFOLLOW, 0o600)
    .catch(mapError);
  const hash = crypto.createHash('sha256');
  async function* hashed() {
    for await (const piece of data) {
      hash.update(piece);
      yield piece;
    }
  }
  try {
    await writeStreamAt(fh, hashed(), 0).catch(mapError);
    if (hash.digest('hex') !== sha256)
      throw new AppError(CommonCodes.verificationFailed, 'The checksum of the file differs');
    return { tmp, fh };
  } catch (e) {
    await fh.close().catch(() => undefined);
    await removeQuietly(tmp);
    throw e;
  }
}

/** A folder held open (anchored) for a whole tar batch: its small files are made and named through it. */
export interface HeldFolder {
  /** The anchored path of the folder: names below it are reached through its descriptor. */
  dir: string;
  release(): Promise<void>;
}

/**
 * Opens a folder once for a batch through `atFolder` (checked to be the resolved folder, no link swapped in) and
 * keeps it open until `release`: each small file then costs its own calls only, not an open, a check and a close
 * of its folder (which were about half of a small file's calls).
 */
export function holdFolder(dirHost: string): Promise<HeldFolder> {
  return new Promise((resolve, reject) => {
    let free!: () => void;
    const released = new Promise<void>((r) => (free = r));
    const held = atFolder(dirHost, async (dir) => {
      resolve({
        dir,
        release: async () => {
          free();
          await held;
        },
      });
      await released;
    });
    held.catch((e: unknown) => reject(e instanceof Error ? e : new Error(String(e))));
  });
}

/**
 * One small file of a tar batch, whole in memory: checked against its SHA-256 first (a mismatch writes nothing,
 * "1010"), written to a hidden temp name in the held folder, mode 0644, fsync, then its name: a link (never over an
 * existing item) or, with `overwrite`, a rename over a file (never a folder).
 */
export async function storeSmall(
  folder: HeldFolder,
  name: string,
  data: Buffer[],
  sha256: string,
  overwrite: boolean,
): Promise<void> {
  const hash = crypto.createHash('sha256');
  for (const d of data) hash.update(d);
  if (hash.digest('hex') !== sha256)
    throw new AppError(CommonCodes.verificationFailed, 'The checksum of the file differs');
  const tmp = `${folder.dir}/${tempName(name, TEMP_SUFFIX)}`;
  const to = `${folder.dir}/${name}`;
  const fh = await fs
    .open(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600)
    .catch(mapError);
  try {
    try {
      await writeStreamAt(
        fh,
        (async function* () {
          yield* data;
        })(),
        0,
      );
      await fh.chmod(0o644);
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (!overwrite) {
      try {
        await fs.link(tmp, to);
        await fs.unlink(tmp);
        return;
      } catch (e) {
        if (errno(e) === 'EEXIST') {
          const st = await fs.lstat(to).catch(() => null);
          throw conflictError(!!st?.isDirectory());
        }
        // A file system without hard links: an existence check, then rename.
        if (!['EPERM', 'EXDEV', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP'].includes(errno(e) ?? '')) throw e;
      }
    }
    const existing = await fs.lstat(to).catch(() => null);
    if (existing && (!overwrite || existing.isDirectory())) throw conflictError(existing.isDirectory());
    await fs.rename(tmp, to);
  } catch (e) {
    await removeQuietly(tmp);
    return mapError(e);
  }
}

/** One entry of a folder walk: path relative to the walk's base, `dir` or a file with its size. */
export interface WalkEntry {
  rel: string;
  dir: boolean;
  size: number;
  mtime: number;
}

/**
 * Walks the chosen items depth-first without holding a whole tree in memory: one open directory handle per level,
 * read in batches. Links are listed by lstat and skipped (a link could lead outside the user's roots); our own
 * partial and temp files are skipped. Yields paths relative to `baseHost`.
 */
export async function* walk(itemHost: string, baseHost: string): AsyncGenerator<WalkEntry> {
  const st = await fs.lstat(itemHost).catch(mapError);
  const rel = path.relative(baseHost, itemHost).split(path.sep).join('/');
  if (st.isFile()) {
    yield { rel, dir: false, size: st.size, mtime: st.mtimeMs };
    return;
  }
  if (!st.isDirectory()) return;
  yield { rel, dir: true, size: 0, mtime: st.mtimeMs };
  const dir = await fs.opendir(itemHost, { bufferSize: 256 }).catch(mapError);
  for await (const d of dir) {
    if (isInternalName(d.name) || d.isSymbolicLink()) continue;
    if (d.isDirectory() || d.isFile()) yield* walk(path.join(itemHost, d.name), baseHost);
  }
}

/** Reads a whole (small) file through a no-follow descriptor, yielding it in pieces while hashing. */
export async function readWhole(
  host: string,
): Promise<{ size: number; chunks: () => AsyncGenerator<Buffer> }> {
  const fh = await openForRead(host);
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    throw new AppError(FileCodes.notAFolder, 'Not a regular file');
  }
  return {
    size: st.size,
    async *chunks() {
      const buf = Buffer.allocUnsafe(Math.min(1024 * 1024, Math.max(1, st.size)));
      let left = st.size;
      try {
        while (left > 0) {
          const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, left), null);
          if (bytesRead === 0)
            throw new AppError(FileCodes.abnormalFile, 'The file shrank while it was read');
          left -= bytesRead;
          yield Buffer.from(buf.subarray(0, bytesRead));
        }
      } finally {
        await fh.close();
      }
    },
  };
}

/** One file with Range (206), through efile's no-follow sender. */
export const sendRange = sendFile;
