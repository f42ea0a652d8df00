import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import { FileCodes, type JobOutput } from '@hpc/contracts';
import type { PathResolver } from '@hpc/cluster-kit';
import { AppError } from '@hpc/server-kit';
import type { JobScope } from './job-worker';

/**
 * A piece of a job's stdout or stderr, read as the user (a live tail: the page asks again from `next`). The file is
 * a host path the scheduler reported; it must still be inside the user's roots, and is opened without following a
 * final link. No file yet (a pending job): `missing`.
 */
export async function readOutput(
  resolver: PathResolver,
  scope: JobScope,
  file: string,
  offset: number | null,
  maxBytes: number,
): Promise<JobOutput> {
  const clusterPath = resolver.toCluster(file);
  const r = await resolver.resolve(scope, clusterPath, { mustExist: false, follow: false });
  const missing = { path: clusterPath, text: '', from: 0, next: 0, size: 0, missing: true };
  if (!r.stat) return missing;
  // A link put under the output's name (ELOOP) is no output, as a FIFO is not (found from outside: it answered
  // "ELOOP, retry"); a file the user cannot read is a permission refusal, not a failure of the system.
  const fh = await fs
    .open(r.host, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    .catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ELOOP' || e.code === 'ENOENT') return null;
      if (e.code === 'EACCES' || e.code === 'EPERM') throw new AppError(FileCodes.permissionDenied);
      throw e;
    });
  if (!fh) return missing;
  try {
    const st = await fh.stat();
    if (!st.isFile()) return missing;
    const size = st.size;
    // From the offset asked for; a file that shrank (rewritten) starts again from its end's last piece.
    let from = offset == null || offset > size ? Math.max(0, size - maxBytes) : offset;
    const length = Math.min(maxBytes, size - from);
    const buf = Buffer.alloc(Math.max(0, length));
    const { bytesRead } = length > 0 ? await fh.read(buf, 0, length, from) : { bytesRead: 0 };
    let chunk = buf.subarray(0, bytesRead);
    // Start on a character boundary when the tail cut one (UTF-8 continuation bytes are 10xxxxxx).
    let skip = 0;
    while (offset == null && skip < 3 && skip < chunk.length && (chunk[skip]! & 0xc0) === 0x80) skip++;
    chunk = chunk.subarray(skip);
    from += skip;
    // And end on one: an incomplete last character is left for the next read.
    let end = chunk.length;
    for (let i = 1; i <= 3 && i <= chunk.length; i++) {
      const b = chunk[chunk.length - i]!;
      if ((b & 0xc0) === 0xc0) {
        const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (need > i) end = chunk.length - i;
        break;
      }
      if ((b & 0x80) === 0) break;
    }
    chunk = chunk.subarray(0, end);
    return {
      path: clusterPath,
      text: chunk.toString('utf8'),
      from,
      next: from + chunk.length,
      size,
      missing: false,
    };
  } finally {
    await fh.close();
  }
}
