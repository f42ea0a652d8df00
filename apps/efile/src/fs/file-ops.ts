import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { AppError } from '@hpc/server-kit';
import type { Resolved } from '@hpc/cluster-kit';
import { tempName } from './names';
import { atFolder, atHost, atHosts, checkOpened } from './anchored';
import { errno } from './errno';
import { removeTree } from './safe-remove';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { EfileText } from '../messages';

/** Maps file-system errors to the spec's codes; anything unexpected is rethrown (→ 500, logged). */
export function fsError(e: unknown): never {
  switch (errno(e) ?? '') {
    case 'ENOENT':
      throw new AppError(FileCodes.notFound);
    case 'EEXIST':
      throw new AppError(FileCodes.sameNameFile);
    case 'ENOTEMPTY':
      throw new AppError(FileCodes.notEmpty);
    case 'ENOTDIR':
      throw new AppError(FileCodes.notAFolder);
    case 'EACCES':
    case 'EPERM':
    case 'ELOOP':
    case 'EROFS':
      throw new AppError(FileCodes.permissionDenied);
    case 'ENOSPC':
    case 'EDQUOT':
      throw new AppError(FileCodes.noSpace);
    case 'ENAMETOOLONG':
      throw new AppError(CommonCodes.invalidInput, EfileText.nameTooLongForFs);
    case 'EFBIG':
    case 'EOVERFLOW':
      throw new AppError(CommonCodes.tooLarge, EfileText.beyondFileSystem);
    case 'ENXIO':
      // O_NONBLOCK open of a FIFO with no reader, or of a socket: not a file efile reads or writes.
      throw notRegular();
    default:
      throw e;
  }
}

export const conflictError = (isDir: boolean) =>
  new AppError(isDir ? FileCodes.sameNameDir : FileCodes.sameNameFile);

// Every operation below reaches its folder through `atHost`/`atFolder` (anchored.ts): a parent swapped for a link
// after the resolver's check cannot redirect it into another user's folder.

export async function makeDir(target: Resolved): Promise<void> {
  if (target.stat) throw conflictError(target.stat.isDirectory());
  await atHost(target.host, (p) => fs.mkdir(p)).catch(fsError);
}

/** Creates an empty file; O_EXCL also refuses a dangling symlink at the name. */
export async function touchFile(target: Resolved): Promise<void> {
  if (target.stat) throw conflictError(target.stat.isDirectory());
  const fh = await atHost(target.host, (p) =>
    fs.open(p, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644),
  ).catch(fsError);
  await fh.close();
}

/** Removes a file, link or (when recursive) folder, never following a link, even one swapped in meanwhile. */
export async function removeEntry(target: Resolved, recursive: boolean): Promise<void> {
  if (!target.stat) throw new AppError(FileCodes.notFound);
  await removeTree(target.host, { recursive }).catch(fsError);
}

/**
 * Renames without ever replacing: a file (or link) is linked to the new name, which fails if the name exists, then
 * unlinked; a folder is renamed after a check (rename(2) cannot replace a non-empty folder, and a file check is
 * raced only by the user themselves). Falls back to the checked rename where hard links are refused.
 */
export async function renameNoReplace(fromHost: string, toHost: string, isDir: boolean): Promise<void> {
  await atHosts(fromHost, toHost, (from, to) => renameAnchored(from, to, isDir));
}

/** Puts a file over the one at `toHost` (an overwrite the user confirmed), reaching both folders like every rename. */
export async function replaceFile(fromHost: string, toHost: string): Promise<void> {
  await atHosts(fromHost, toHost, (from, to) => fs.rename(from, to)).catch(fsError);
}

async function renameAnchored(from: string, to: string, isDir: boolean): Promise<void> {
  if (!isDir) {
    try {
      await fs.link(from, to);
      await fs.unlink(from);
      return;
    } catch (e) {
      if (errno(e) === 'EEXIST') throw conflictError(false);
      if (!['EPERM', 'EXDEV', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP'].includes(errno(e) ?? '')) fsError(e);
    }
  }
  const existing = await fs.lstat(to).catch(() => null);
  if (existing) throw conflictError(existing.isDirectory());
  await fs.rename(from, to).catch(fsError);
}

/**
 * Atomic replace of a file's content (DESIGN §7): a temp sibling with the original mode (and owner when we run as
 * root), fsync, rename over the final name. Readers see the old or the new content, never half of it.
 */
export async function atomicWriteFile(target: Resolved, data: string | Buffer): Promise<void> {
  const st = target.stat;
  const mode = st ? st.mode & 0o7777 : 0o644;
  await atFolder(target.parentHost, async (dir) => {
    const tmp = `${dir}/${tempName(target.name)}`;
    const fh = await fs.open(
      tmp,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
      mode,
    );
    try {
      await fh.writeFile(data);
      await fh.chmod(mode);
      if (st && process.getuid?.() === 0) await fh.chown(st.uid, st.gid);
      await fh.sync();
      await fh.close();
      await fs.rename(tmp, `${dir}/${path.basename(target.host)}`);
    } catch (e) {
      await fh.close().catch(() => undefined);
      await fs.unlink(tmp).catch(() => undefined);
      throw e;
    }
  }).catch(fsError);
}

export const notRegular = () => new AppError(FileCodes.abnormalFile, EfileText.notRegularFifo);

/**
 * Opens a file that must be a regular file: never a link (O_NOFOLLOW) and never waiting (O_NONBLOCK). A FIFO swapped
 * in under the name after every check blocks a plain open(2) until a writer comes, holding one of libuv's few pool
 * threads; 16 of them froze the whole server. With O_NONBLOCK the open returns at once (a FIFO without a reader
 * fails a write-only open with ENXIO), then fstat of the descriptor itself refuses anything but a regular file with
 * "1028" before a byte is read or written. O_NONBLOCK changes nothing for regular files.
 */
export async function openRegular(host: string, flags: number, mode?: number): Promise<fs.FileHandle> {
  return (await openRegularSized(host, flags, mode)).fh;
}

/** `openRegular`, with the size its check saw (a caller that needs it makes no second fstat). */
async function openRegularSized(host: string, flags: number, mode?: number) {
  const fh = await fs.open(host, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode).catch(fsError);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw notRegular();
    return { fh, size: st.size };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** Opens an existing file for reading without following a link swapped in, at the final component or above it. */
export async function openForRead(host: string): Promise<fs.FileHandle> {
  return (await openForReadSized(host)).fh;
}

/** `openForRead`, with the file's size when opened. */
export async function openForReadSized(host: string): Promise<{ fh: fs.FileHandle; size: number }> {
  const opened = await openRegularSized(host, constants.O_RDONLY);
  try {
    await checkOpened(opened.fh.fd, host);
  } catch (e) {
    await opened.fh.close();
    throw e;
  }
  return opened;
}
