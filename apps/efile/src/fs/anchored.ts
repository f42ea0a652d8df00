import fs from 'node:fs/promises';
import { constants, readlink, type Stats } from 'node:fs';
import path from 'node:path';
import { AppError } from '@hpc/server-kit';
import { errno } from './errno';
import { FileCodes } from '@hpc/contracts';
import { EfileText } from '../messages';

export const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/**
 * Linux's O_PATH (not in Node's `constants`; libuv passes open flags through): a descriptor that names a file
 * without opening it for reading, so a FIFO does not block and a device is not touched. `fstat` and the real path
 * under /proc/self/fd work on it.
 */
export const O_PATH = 0o10000000;

/** The path through which the kernel reaches an open folder itself, whatever its path has become since. */
export const anchor = (fd: number) => `/proc/self/fd/${fd}`;

const moved = () => new AppError(FileCodes.permissionDenied, EfileText.folderMovedWhileChanged);

/**
 * Runs `fn` with a path that reaches the folder `dirHost` as it is now, not whatever its path leads to later.
 * The resolver checks real paths, but between that check and the operation someone who can write in the user's
 * folders could swap a parent for a link to another user's folder, and efile has every user's rights. Node has no
 * `openat`/`unlinkat`, so the folder is opened (O_DIRECTORY|O_NOFOLLOW), checked to still be `dirHost` (its real
 * path, so a link in its place or above it shows), and reached as /proc/self/fd/<fd>: the kernel resolves names
 * under that from the open folder. Refuses with "1030" when the folder is no longer where the resolver saw it.
 */
export async function atFolder<T>(dirHost: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const fh = await fs.open(dirHost, DIR_FLAGS).catch(async (e: unknown) => {
    if (errno(e) === 'ENOTDIR' && (await isPlainNonFolder(dirHost)))
      throw new AppError(FileCodes.notAFolder, EfileText.parentNotAFolder);
    if (errno(e) === 'ELOOP' || errno(e) === 'ENOTDIR') throw moved();
    throw e;
  });
  try {
    await checkOpened(fh.fd, dirHost);
    return await fn(anchor(fh.fd));
  } finally {
    await fh.close();
  }
}

/**
 * Whether `dirHost` is, where the resolver saw it, something other than a folder or a link (mkdir or touch under a
 * file: "1022", not "moved"). Opening it O_DIRECTORY|O_NOFOLLOW says ENOTDIR both for that and for a link swapped
 * in; the item itself is looked at through a descriptor checked to be `dirHost`, so a folder above swapped for a link
 * cannot make what lies beyond it answer for it (that stays "1030").
 */
async function isPlainNonFolder(dirHost: string): Promise<boolean> {
  const st = await lstatChecked(dirHost).catch(() => null);
  return !!st && !st.isDirectory() && !st.isSymbolicLink();
}

/** `atFolder` for the folder of `host`, handing `fn` the anchored path of `host` itself (its name unchanged). */
export function atHost<T>(host: string, fn: (anchored: string) => Promise<T>): Promise<T> {
  return atFolder(path.dirname(host), (dir) => fn(`${dir}/${path.basename(host)}`));
}

/** `atHost` for two paths (a rename), opening their folder once when it is the same. */
export function atHosts<T>(a: string, b: string, fn: (a: string, b: string) => Promise<T>): Promise<T> {
  if (path.dirname(a) !== path.dirname(b)) return atHost(a, (pa) => atHost(b, (pb) => fn(pa, pb)));
  return atFolder(path.dirname(a), (dir) => fn(`${dir}/${path.basename(a)}`, `${dir}/${path.basename(b)}`));
}

/**
 * Where a link (reached through an anchored path) leads, and what is there, from one descriptor: the link is
 * followed once by the kernel, and the real path and the stat are both of what that descriptor names, so a link
 * re-pointed meanwhile cannot make the stat of something outside pass a check of something inside. Null when it
 * leads nowhere.
 */
export async function followLink(anchored: string): Promise<{ real: string; stat: Stats } | null> {
  const fh = await fs.open(anchored, O_PATH).catch(() => null);
  if (!fh) return null;
  try {
    const [real, stat] = await Promise.all([fs.readlink(anchor(fh.fd)), fh.stat()]);
    return { real, stat };
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/**
 * Checks that a descriptor opened by path reaches `host` itself: a link swapped in above it since the resolver's
 * check would show in the real path. For a read this is as safe as anchoring first (nothing is read before the
 * check) and costs one call instead of three.
 */
export function checkOpened(fd: number, host: string): Promise<void> {
  return new Promise((resolve, reject) =>
    readlink(anchor(fd), (err, real) => {
      if (err) reject(err);
      else if (real !== host) reject(moved());
      else resolve();
    }),
  );
}

/**
 * The lstat of a selected item, taken from a descriptor of the item itself (O_PATH|O_NOFOLLOW: nothing is opened
 * for reading, a FIFO does not block) checked to be `host`: a folder above it swapped for a link since the resolver
 * saw it shows in the descriptor's real path ("1030") instead of handing over the stat of what the link leads to.
 * Null when it is gone.
 */
export async function lstatChecked(host: string): Promise<Stats | null> {
  const fh = await fs.open(host, O_PATH | constants.O_NOFOLLOW).catch(() => null);
  if (!fh) return null;
  try {
    await checkOpened(fh.fd, host);
    return await fh.stat();
  } finally {
    await fh.close();
  }
}
