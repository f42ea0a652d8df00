import fs from 'node:fs/promises';
import { constants, type Stats } from 'node:fs';
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
 * Renames without ever replacing, also when two requests race for one name (Node has no renameat2 with
 * RENAME_NOREPLACE). A file (or link) is linked to the new name, which fails if the name exists, then unlinked. A
 * folder, and a file where hard links are refused, first claims the name with an empty placeholder of its own kind
 * (mkdir, or an O_EXCL create: exactly one claimant gets it, "1023"/"1021" for the others), then is renamed over
 * that placeholder. rename(2) silently replaces an empty folder (and any file), so a check of the name followed by
 * rename let two folders renamed to one name both succeed, the first one lost under the second.
 */
export async function renameNoReplace(fromHost: string, toHost: string, isDir: boolean): Promise<void> {
  await atHosts(fromHost, toHost, (from, to) => renameAnchored(from, to, isDir));
}

/** Puts a file over the one at `toHost` (an overwrite the user confirmed), reaching both folders like every rename. */
export async function replaceFile(fromHost: string, toHost: string): Promise<void> {
  await atHosts(fromHost, toHost, (from, to) => fs.rename(from, to)).catch(fsError);
}

/** Errors of link(2) meaning "no hard links here" (some FUSE and network file systems), not a refusal. */
const LINKLESS = ['EPERM', 'EXDEV', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP'];

/** The refusal for a name found taken: by a folder "1023", by anything else "1021" (a guess when it went again). */
async function takenBy(to: string, guessDir: boolean): Promise<AppError> {
  const st = await fs.lstat(to).catch(() => null);
  return conflictError(st ? st.isDirectory() : guessDir);
}

async function renameAnchored(from: string, to: string, isDir: boolean): Promise<void> {
  if (!isDir) {
    try {
      await fs.link(from, to);
      await fs.unlink(from);
      return;
    } catch (e) {
      if (errno(e) === 'EEXIST') throw await takenBy(to, false);
      if (!LINKLESS.includes(errno(e) ?? '')) fsError(e);
    }
  }
  // The claim: whoever creates the placeholder owns the name; nobody else's rename replaces it.
  let placeholder: Stats;
  try {
    if (isDir) {
      await fs.mkdir(to, 0o700);
      placeholder = await fs.lstat(to);
    } else {
      const fh = await fs.open(to, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
      placeholder = await fh.stat().finally(() => fh.close());
    }
  } catch (e) {
    if (errno(e) === 'EEXIST') throw await takenBy(to, isDir);
    fsError(e);
  }
  try {
    await fs.rename(from, to);
  } catch (e) {
    // Our placeholder goes (only while it is still ours: same inode); the name is free again.
    const now = await fs.lstat(to).catch(() => null);
    if (now && now.ino === placeholder.ino && now.dev === placeholder.dev)
      await (isDir ? fs.rmdir(to) : fs.unlink(to)).catch(() => undefined);
    // Something was put into the placeholder folder meanwhile: a folder holds the name now.
    if (errno(e) === 'ENOTEMPTY' || errno(e) === 'EEXIST') throw conflictError(true);
    fsError(e); // EXDEV goes up as it is: a move across file systems copies instead
  }
}

/**
 * Atomic replace of a file's content (DESIGN §7): a temp sibling with the original mode (and owner when we run as
 * root), fsync, rename over the final name. Readers see the old or the new content, never half of it.
 * With `expectedMtime` (ms, rounded as the preview's check gives it to the editor) the file must still have that
 * mtime right before the rename, else nothing is written and "1028" (changed since it was opened). The caller
 * serializes efile's own saves of the file (preview.service's save lock), so this last look is not raced by them.
 */
export async function atomicWriteFile(
  target: Resolved,
  data: string | Buffer,
  expectedMtime?: number | null,
): Promise<void> {
  const st = target.stat;
  const mode = st ? st.mode & 0o7777 : 0o644;
  await atFolder(target.parentHost, async (dir) => {
    const final = `${dir}/${path.basename(target.host)}`;
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
      if (expectedMtime != null) {
        const now = await fs.lstat(final).catch(() => null);
        if (!now?.isFile() || Math.round(now.mtimeMs) !== expectedMtime)
          throw new AppError(FileCodes.abnormalFile, EfileText.changedSinceOpened);
      }
      await fs.rename(tmp, final);
    } catch (e) {
      await fh.close().catch(() => undefined);
      await fs.unlink(tmp).catch(() => undefined);
      throw e;
    }
  }).catch(fsError);
}

/**
 * "1028" for what is not a regular file, saying what it is when its stat is known (a folder opened for a raw preview
 * is not a FIFO); without one (an open refused with ENXIO: a FIFO without a reader, or a socket) the general words.
 */
export const notRegular = (st?: Stats) => new AppError(FileCodes.abnormalFile, notRegularText(st));

function notRegularText(st?: Stats) {
  if (!st) return EfileText.notRegularFifo;
  if (st.isDirectory()) return EfileText.folderNotFile;
  if (st.isFIFO()) return EfileText.fifoNotFile;
  if (st.isSocket()) return EfileText.socketNotFile;
  if (st.isBlockDevice() || st.isCharacterDevice()) return EfileText.deviceNotFile;
  if (st.isSymbolicLink()) return EfileText.linkNotFile;
  return EfileText.notARegularFile;
}

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
    if (!st.isFile()) throw notRegular(st);
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
