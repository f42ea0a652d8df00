import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import fsCb, { constants } from 'node:fs';
import { promisify } from 'node:util';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { errno } from './errno';
import { conflictError, fsError, openForRead } from './file-ops';
import { tempName, TEMP_SUFFIX, isInternalName } from './names';
import { writeAllAt } from './write-at';
import { atFolder, atHost } from './anchored';

/**
 * The file-system calls of fast transfer (issue 11 §2) that the general operations of file-ops do not cover: the
 * preallocated partial, whole-file digests, small files stored through a held folder, the download walk. Only the
 * user file system (userfs/local.ts) calls them, in this process in single mode and inside the user's worker in unix
 * mode. Host paths come from the path resolver (real, inside the user's roots); the final component is opened with
 * O_NOFOLLOW and names are reached through anchored folders.
 */

const noSpace = (e: unknown) => errno(e) === 'ENOSPC' || errno(e) === 'EDQUOT';
const mapError = (e: unknown): never => {
  if (isAppError(e)) throw e;
  if (noSpace(e)) throw new AppError(FileCodes.noSpace);
  return fsError(e);
};

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

/** Size of a regular file at `host` (no link followed), or null. */
export async function fileSize(host: string): Promise<number | null> {
  const st = await fs.lstat(host).catch(() => null);
  return st?.isFile() ? st.size : null;
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

/** The callback forms of the calls a small file makes: plain descriptors, no FileHandle (see storeSmall). */
const raw = {
  open: promisify(fsCb.open),
  fdatasync: promisify(fsCb.fdatasync),
  fchmod: promisify(fsCb.fchmod),
  close: promisify(fsCb.close),
  link: promisify(fsCb.link),
  unlink: promisify(fsCb.unlink),
  rename: promisify(fsCb.rename),
  lstat: promisify(fsCb.lstat),
};

/**
 * One small file of a tar batch, whole in memory: checked against its SHA-256 first (a mismatch writes nothing,
 * "1010"), written to a hidden temp name in the held folder, created with `mode` (0644 in single mode, what the
 * user's umask leaves of 0666 in their worker; `fixMode` when the process's umask would take bits of it away),
 * fdatasync, then its name: a link (never over an existing item) or, with `overwrite`, a rename over a file (never
 * a folder).
 *
 * Plain descriptors through the callback API, one write: a small file's cost is the number of calls and what each
 * carries, and fs/promises' FileHandle (its own close tracking, a stream for the write) doubled it in a profile of
 * 10,000 files. The calls stay off the event loop (the thread pool): a slow or hung file system of one user never
 * stops the others' requests.
 */
export async function storeSmall(
  folder: HeldFolder,
  name: string,
  data: Buffer[],
  sha256: string,
  overwrite: boolean,
  mode: number,
  fixMode: boolean,
): Promise<void> {
  const hash = crypto.createHash('sha256');
  for (const d of data) hash.update(d);
  if (hash.digest('hex') !== sha256)
    throw new AppError(CommonCodes.verificationFailed, 'The checksum of the file differs');
  const tmp = `${folder.dir}/${tempName(name, TEMP_SUFFIX)}`;
  const to = `${folder.dir}/${name}`;
  const fd = await raw
    .open(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, mode)
    .catch(mapError);
  try {
    try {
      await writeAllAt(fd, data, 0);
      if (fixMode) await raw.fchmod(fd, mode);
      await raw.fdatasync(fd);
    } finally {
      await raw.close(fd);
    }
    if (!overwrite) {
      try {
        await raw.link(tmp, to);
        await raw.unlink(tmp);
        return;
      } catch (e) {
        if (errno(e) === 'EEXIST') {
          const st = await raw.lstat(to).catch(() => null);
          throw conflictError(!!st?.isDirectory());
        }
        // A file system without hard links: an existence check, then rename.
        if (!['EPERM', 'EXDEV', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP'].includes(errno(e) ?? '')) throw e;
      }
    }
    const existing = await raw.lstat(to).catch(() => null);
    if (existing && (!overwrite || existing.isDirectory())) throw conflictError(existing.isDirectory());
    await raw.rename(tmp, to);
  } catch (e) {
    await raw.unlink(tmp).catch(() => undefined);
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
