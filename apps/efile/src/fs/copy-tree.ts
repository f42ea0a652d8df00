import fs from 'node:fs/promises';
import { constants, type Stats } from 'node:fs';
import { AppError } from '@hpc/server-kit';
import { anchor, atHost, checkOpened, DIR_FLAGS, lstatChecked } from './anchored';
import { BLOCK } from './block-pool';
import { errno } from './errno';
import { fsError, openRegular } from './file-ops';
import { isInternalName } from './names';
import { FileCodes } from '@hpc/contracts';
import { EfileText } from '../messages';

export interface Progress {
  bytesDone: number;
  filesDone: number;
}

/**
 * Folder levels a walk follows at most. Each level keeps its folder open (two descriptors for a copy), so the limit
 * bounds descriptors: 4096 levels are 8192 of the 20,000 a process may open here. Deeper trees are refused with
 * "1028" rather than failing half-way with EMFILE.
 */
export const MAX_DEPTH = 4096;
const tooDeep = () => new AppError(FileCodes.abnormalFile, EfileText.folderTooDeep(MAX_DEPTH));

/** One open folder of a walk and the names in it still to visit. */
interface Level {
  dir: fs.FileHandle;
  names: string[];
  next: number;
}

/**
 * Opens a folder that must still be the one the caller saw: O_DIRECTORY|O_NOFOLLOW refuses a link swapped in for
 * it (ELOOP) or a file (ENOTDIR); both answer "1030", as a move under our feet does elsewhere.
 */
async function openDir(p: string): Promise<fs.FileHandle> {
  return fs.open(p, DIR_FLAGS).catch((e: unknown) => {
    if (errno(e) === 'ELOOP' || errno(e) === 'ENOTDIR')
      throw new AppError(FileCodes.permissionDenied, EfileText.folderReplacedWhileRead);
    return fsError(e);
  });
}

async function namesOf(dir: fs.FileHandle): Promise<string[]> {
  return (await fs.readdir(anchor(dir.fd)).catch(fsError)).filter((n) => !isInternalName(n)).sort();
}

/**
 * Walks a folder tree without recursion and without long paths: every folder is opened (never following a link)
 * and its entries are reached as /proc/self/fd/<fd>/<name>, so a 2,500-level tree neither overflows a stack nor hits
 * PATH_MAX, and a folder swapped for a link to someone else's folder while the walk runs is refused, not followed
 * (the race of issue 10 §1: `copy-tree` used to walk by path). `visit` gets each entry's anchored path and lstat and
 * returns true to descend into a folder.
 */
async function walk(
  rootDir: fs.FileHandle,
  visit: (p: string, st: Stats, depth: number) => Promise<'descend' | 'skip'>,
  onLeave?: (depth: number) => Promise<void>,
): Promise<void> {
  const stack: Level[] = [{ dir: rootDir, names: await namesOf(rootDir), next: 0 }];
  try {
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next >= top.names.length) {
        stack.pop();
        if (stack.length > 0) await top.dir.close();
        await onLeave?.(stack.length);
        continue;
      }
      const p = `${anchor(top.dir.fd)}/${top.names[top.next++]}`;
      // Gone since the listing: nothing to visit.
      const st = await fs.lstat(p).catch(() => null);
      if (!st) continue;
      if ((await visit(p, st, stack.length)) !== 'descend') continue;
      if (stack.length >= MAX_DEPTH) throw tooDeep();
      const dir = await openDir(p);
      stack.push({
        dir,
        names: await namesOf(dir).catch(async (e: unknown) => {
          await dir.close();
          throw e;
        }),
        next: 0,
      });
    }
  } finally {
    // The root is the caller's; the levels still open after a failure are closed here.
    for (const l of stack.slice(1)) await l.dir.close().catch(() => undefined);
  }
}

/**
 * Files and bytes under the given items (links count as one file of no bytes; never followed). Each item is
 * lstat'ed from a checked descriptor of its own (`lstatChecked`) and each selected folder opened and checked to be the item itself: by path,
 * a folder above an item swapped for a link since the resolver's check counted the files and bytes beyond the link
 * (another user's folder) into the progress the user sees. Such an item answers "1030"; one gone is not counted.
 */
export async function measure(hosts: string[]): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const h of hosts) {
    const st = await lstatChecked(h);
    if (!st) continue;
    if (!st.isDirectory()) {
      files++;
      bytes += st.isFile() ? st.size : 0;
      continue;
    }
    const dir = await openDir(h);
    try {
      await checkOpened(dir.fd, h);
      await walk(dir, async (_p, s) => {
        if (s.isDirectory()) return 'descend';
        files++;
        bytes += s.isFile() ? s.size : 0;
        return 'skip';
      });
    } finally {
      await dir.close();
    }
  }
  return { files, bytes };
}

/**
 * Copies one regular file from the anchored path `from` to the new name `to` in 1 MiB blocks, so progress counts
 * bytes and a cancel stops within one block. The source is opened without following a link and without waiting
 * (a FIFO is refused, see `openRegular`); the copy is created exclusively.
 */
async function copyFile(
  from: string,
  to: string,
  st: Stats,
  block: Buffer,
  progress: Progress,
  signal: AbortSignal,
) {
  const src = await openRegular(from, constants.O_RDONLY);
  try {
    const dst = await fs
      .open(
        to,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        st.mode & 0o7777,
      )
      .catch(fsError);
    try {
      for (let pos = 0; ;) {
        signal.throwIfAborted();
        const { bytesRead } = await src.read(block, 0, BLOCK, pos);
        if (bytesRead === 0) break;
        for (let w = 0; w < bytesRead;) w += (await dst.write(block, w, bytesRead - w, pos + w)).bytesWritten;
        pos += bytesRead;
        progress.bytesDone += bytesRead;
      }
      await dst.utimes(st.atime, st.mtime);
    } finally {
      await dst.close();
    }
  } finally {
    await src.close();
  }
  progress.filesDone++;
}

/**
 * Copies a file, link or folder tree to `dst` (which must not exist), streaming file data in 1 MiB blocks so the
 * progress counts bytes and a cancel (the signal) stops within one block. Links are copied as links; FIFOs, sockets
 * and devices are not copied. `src` is the resolver's no-follow host path: the source folder is opened once and
 * checked to still be there (not a link swapped in since), and everything under it is reached from that descriptor.
 */
export async function copyTree(
  src: string,
  dst: string,
  progress: Progress,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const st = await fs.lstat(src).catch(fsError);
  if (st.isSymbolicLink()) {
    const target = await atHost(src, (p) => fs.readlink(p)).catch(fsError);
    await atHost(dst, (p) => fs.symlink(target, p)).catch(fsError);
    progress.filesDone++;
    return;
  }
  if (st.isFile()) {
    await atHost(src, (from) =>
      atHost(dst, (to) => copyFile(from, to, st, Buffer.allocUnsafe(BLOCK), progress, signal)),
    );
    return;
  }
  if (!st.isDirectory()) return;
  const srcDir = await openDir(src);
  try {
    await checkOpened(srcDir.fd, src);
    await atHost(dst, (p) => fs.mkdir(p, { mode: st.mode & 0o7777 })).catch(fsError);
    const dstDir = await openDir(dst);
    await checkOpened(dstDir.fd, dst).catch(async (e: unknown) => {
      await dstDir.close();
      throw e;
    });
    // One buffer for every file of the tree: they are copied one after the other.
    const block = Buffer.allocUnsafe(BLOCK);
    // The copy's folders, parallel to the walk's stack: where the entries of the folder being walked go.
    const targets: fs.FileHandle[] = [dstDir];
    try {
      await walk(
        srcDir,
        async (p, s, depth) => {
          signal.throwIfAborted();
          const into = `${anchor(targets[depth - 1]!.fd)}/${p.slice(p.lastIndexOf('/') + 1)}`;
          if (s.isSymbolicLink()) {
            await fs.symlink(await fs.readlink(p), into).catch(fsError);
            progress.filesDone++;
          } else if (s.isFile()) {
            await copyFile(p, into, s, block, progress, signal);
          } else if (s.isDirectory()) {
            if (depth >= MAX_DEPTH) throw tooDeep();
            await fs.mkdir(into, { mode: s.mode & 0o7777 }).catch(fsError);
            targets.push(await openDir(into));
            return 'descend';
          }
          return 'skip';
        },
        async (depth) => {
          // Leaving a folder of the walk: its copy is done too (the root's copy closes below).
          if (depth > 0) await targets.pop()!.close();
        },
      );
    } finally {
      for (const t of targets) await t.close().catch(() => undefined);
    }
  } finally {
    await srcDir.close();
  }
}
