import fs from 'node:fs/promises';
import path from 'node:path';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mapLimit } from './concurrency';
import { isInternalName } from './names';

export interface Progress {
  bytesDone: number;
  filesDone: number;
}

/** Files and bytes under the given items (links count as one file of no bytes; never followed). */
export async function measure(hosts: string[]): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const stack = [...hosts];
  while (stack.length > 0) {
    const h = stack.pop()!;
    const st = await fs.lstat(h).catch(() => null);
    if (!st) continue;
    if (st.isDirectory()) {
      const names = (await fs.readdir(h)).filter((n) => !isInternalName(n));
      await mapLimit(names, 16, async (n) => {
        stack.push(path.join(h, n));
      });
    } else {
      files++;
      bytes += st.isFile() ? st.size : 0;
    }
  }
  return { files, bytes };
}

/**
 * Copies a file, link or folder tree to `dst` (which must not exist), streaming file data in 1 MiB blocks so the
 * progress counts bytes and a cancel (the signal) stops within one block. Links are copied as links.
 */
export async function copyTree(
  src: string,
  dst: string,
  progress: Progress,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const st = await fs.lstat(src);
  if (st.isSymbolicLink()) {
    await fs.symlink(await fs.readlink(src), dst);
    progress.filesDone++;
  } else if (st.isDirectory()) {
    await fs.mkdir(dst, { mode: st.mode & 0o7777 });
    for (const n of (await fs.readdir(src)).filter((x) => !isInternalName(x)).sort()) {
      await copyTree(path.join(src, n), path.join(dst, n), progress, signal);
    }
  } else if (st.isFile()) {
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        progress.bytesDone += chunk.length;
        cb(null, chunk);
      },
    });
    await pipeline(
      createReadStream(src, { highWaterMark: 1024 * 1024 }),
      count,
      createWriteStream(dst, { flags: 'wx', mode: st.mode & 0o7777 }),
      { signal },
    );
    await fs.utimes(dst, st.atime, st.mtime);
    progress.filesDone++;
  }
}
