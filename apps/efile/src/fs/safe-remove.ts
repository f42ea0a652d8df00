import fs from 'node:fs/promises';
import path from 'node:path';
import { anchor, atFolder, DIR_FLAGS } from './anchored';
import { mapLimit } from './concurrency';

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/**
 * Removes `host` — a file, a link, or a folder with everything in it — without ever following a link, even one
 * swapped in while the removal runs. `fs.rm` walks by path: if someone who can write in the tree replaces a folder
 * it is emptying by a link to another user's folder between two of its calls, it empties that folder instead (efile
 * runs with the rights of every user). Node has no `unlinkat`, so each folder is opened (O_DIRECTORY|O_NOFOLLOW:
 * a link fails with ELOOP) and its entries are reached through /proc/self/fd/<fd>/<name>, which the kernel resolves
 * from the open folder, not by walking the path again; unlink and rmdir never follow the final component. The
 * parent is reached the same way (`atFolder`) and must still be `parentHost`, else "1030".
 * With `force`, a `host` that is already gone is not an error; with `recursive: false` a folder must be empty.
 */
export async function removeTree(
  host: string,
  parentHost: string,
  { force = false, recursive = true }: { force?: boolean; recursive?: boolean } = {},
): Promise<void> {
  try {
    await atFolder(parentHost, (dir) => removeAt(dir, path.basename(host), recursive));
  } catch (e) {
    if (!(force && errno(e) === 'ENOENT')) throw e;
  }
}

async function removeAt(dir: string, name: string, recursive = true): Promise<void> {
  const p = `${dir}/${name}`;
  const st = await fs.lstat(p);
  if (!st.isDirectory()) return fs.unlink(p);
  if (!recursive) return fs.rmdir(p);
  const fd = await fs.open(p, DIR_FLAGS);
  try {
    const inner = anchor(fd.fd);
    // Files and links of a folder 8 at a time, its folders one after the other: at most one descriptor per level
    // is open, and a folder of 100,000 files is not 100,000 calls in a row.
    const dirs: string[] = [];
    await mapLimit(await fs.readdir(inner), 8, async (child) => {
      const c = `${inner}/${child}`;
      if ((await fs.lstat(c)).isDirectory()) dirs.push(child);
      else await fs.unlink(c);
    });
    for (const d of dirs) await removeAt(inner, d);
  } finally {
    await fd.close();
  }
  await fs.rmdir(p);
}
