import fs from 'node:fs/promises';
import { anchor, atHost, DIR_FLAGS } from './anchored';
import { mapLimit } from './concurrency';
import { errno } from './errno';

/**
 * Removes `host` — a file, a link, or a folder with everything in it — without ever following a link, even one
 * swapped in while the removal runs. `fs.rm` walks by path: if someone who can write in the tree replaces a folder
 * it is emptying by a link to another user's folder between two of its calls, it empties that folder instead (efile
 * runs with the rights of every user). Node has no `unlinkat`, so each folder is opened (O_DIRECTORY|O_NOFOLLOW:
 * a link fails with ELOOP) and its entries are reached through /proc/self/fd/<fd>/<name>, which the kernel resolves
 * from the open folder, not by walking the path again; unlink and rmdir never follow the final component. The
 * parent is reached the same way (`atHost`) and must still be where the resolver saw it, else "1030".
 * With `force`, a `host` that is already gone is not an error; with `recursive: false` a folder must be empty.
 */
export async function removeTree(
  host: string,
  { force = false, recursive = true }: { force?: boolean; recursive?: boolean } = {},
): Promise<void> {
  try {
    await atHost(host, (p) => removeAt(p, recursive));
  } catch (e) {
    if (!(force && errno(e) === 'ENOENT')) throw e;
  }
}

/** Removes what the anchored path `p` names; `isDir` when the folder's listing already said so. */
async function removeAt(p: string, recursive: boolean, isDir?: boolean): Promise<void> {
  if (!(isDir ?? (await fs.lstat(p)).isDirectory())) return fs.unlink(p);
  if (!recursive) return fs.rmdir(p);
  const fd = await fs.open(p, DIR_FLAGS);
  try {
    const inner = anchor(fd.fd);
    // Files and links of a folder 8 at a time, its folders one after the other: at most one descriptor per level
    // is open, and a folder of 100,000 files is not 100,000 calls in a row. A file swapped for a folder since the
    // listing fails unlink (EISDIR), a folder swapped for a link fails the open (ELOOP): nothing is followed.
    const dirs: string[] = [];
    await mapLimit(await fs.readdir(inner, { withFileTypes: true }), 8, async (d) => {
      if (d.isDirectory()) dirs.push(d.name);
      else await fs.unlink(`${inner}/${d.name}`);
    });
    for (const d of dirs) await removeAt(`${inner}/${d}`, true, true);
  } finally {
    await fd.close();
  }
  await fs.rmdir(p);
}
