import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { AppError } from '@hpc/server-kit';

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;
export const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path through which the kernel reaches an open folder itself, whatever its path has become since. */
export const anchor = (fd: number) => `/proc/self/fd/${fd}`;

const moved = () => new AppError('1030', 'The folder moved while it was being changed');

/**
 * Runs `fn` with a path that reaches the folder `dirHost` as it is now, not whatever its path leads to later.
 * The resolver checks real paths, but between that check and the operation someone who can write in the user's
 * folders could swap a parent for a link to another user's folder, and efile has every user's rights. Node has no
 * `openat`/`unlinkat`, so the folder is opened (O_DIRECTORY|O_NOFOLLOW), checked to still be `dirHost` (its real
 * path, so a link in its place or above it shows), and reached as /proc/self/fd/<fd>: the kernel resolves names
 * under that from the open folder. Refuses with "1030" when the folder is no longer where the resolver saw it.
 */
export async function atFolder<T>(dirHost: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const fh = await fs.open(dirHost, DIR_FLAGS).catch((e: unknown) => {
    if (errno(e) === 'ELOOP' || errno(e) === 'ENOTDIR') throw moved();
    throw e;
  });
  try {
    if ((await fs.readlink(anchor(fh.fd))) !== dirHost) throw moved();
    return await fn(anchor(fh.fd));
  } finally {
    await fh.close();
  }
}

/** `atFolder` for the folder of `host`, handing `fn` the anchored path of `host` itself (its name unchanged). */
export function atHost<T>(host: string, fn: (anchored: string) => Promise<T>): Promise<T> {
  return atFolder(path.dirname(host), (dir) => fn(`${dir}/${path.basename(host)}`));
}
