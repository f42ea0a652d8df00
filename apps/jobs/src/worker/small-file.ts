import { constants } from 'node:fs';
import fs from 'node:fs/promises';

export type SmallFile = { text: string; mtimeMs: number } | 'not-a-file' | 'too-large';

/**
 * A small text file of the user's (a job script, a template), read as it is when opened: never through a final
 * link, never a FIFO or a device. A FIFO put under the name, even after a look at it, would otherwise hold the
 * worker's thread on its open or its read for good; O_NONBLOCK makes the open return at once, and the opened file
 * is then looked at itself (fstat), not its name again.
 */
export async function readSmallFile(file: string, maxBytes: number): Promise<SmallFile> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') return 'not-a-file';
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return 'not-a-file';
    if (st.size > maxBytes) return 'too-large';
    return { text: await fh.readFile('utf8'), mtimeMs: st.mtimeMs };
  } finally {
    await fh.close();
  }
}
