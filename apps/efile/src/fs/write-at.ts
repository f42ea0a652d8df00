import { writev } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';

const writevFd = promisify(writev);

/** Bytes gathered before one positional write: a default 1 MiB upload chunk goes to disk in one `pwritev`. */
const FLUSH_BYTES = 1024 * 1024;

/**
 * Writes a stream's pieces into an open file at `offset`, gathering the socket's ~64 KB pieces into writes of ~1 MiB. A write
 * stream would issue a thread-pool request per piece or small batch; on 2 busy cores every such hop costs a context
 * switch, and a chunk upload is dominated by those hops, not by copying bytes. Memory stays bounded: the stream is
 * not read while a write is in flight.
 */
export async function writeStreamAt(
  fh: FileHandle,
  data: AsyncIterable<Buffer>,
  offset: number,
): Promise<void> {
  let pos = offset;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    let buffers = pending;
    let left = pendingBytes;
    pending = [];
    pendingBytes = 0;
    while (left > 0) {
      // writev may write less than asked (rare, e.g. at a quota boundary): continue after what it did write.
      const { bytesWritten } = await fh.writev(buffers, pos);
      if (bytesWritten === 0) throw Object.assign(new Error('no progress writing'), { code: 'EIO' });
      pos += bytesWritten;
      left -= bytesWritten;
      if (left > 0) buffers = skipBytes(buffers, bytesWritten);
    }
  };
  for await (const piece of data) {
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes >= FLUSH_BYTES) await flush();
  }
  await flush();
}

function skipBytes(buffers: Buffer[], n: number): Buffer[] {
  const out: Buffer[] = [];
  for (const b of buffers) {
    if (n >= b.length) n -= b.length;
    else {
      out.push(n > 0 ? b.subarray(n) : b);
      n = 0;
    }
  }
  return out;
}

/**
 * Writes all of `buffers` at `offset` of a plain descriptor (fs/transfer-ops' small files, which skip FileHandle):
 * writev may write less than asked (rare, e.g. at a quota edge), so it continues after what it did write.
 */
export async function writeAllAt(fd: number, buffers: Buffer[], offset: number): Promise<void> {
  let left = buffers.reduce((n, b) => n + b.length, 0);
  let pos = offset;
  let rest = buffers;
  while (left > 0) {
    const { bytesWritten: n } = await writevFd(fd, rest, pos);
    if (n === 0) throw Object.assign(new Error('no progress writing'), { code: 'EIO' });
    pos += n;
    left -= n;
    if (left > 0) rest = skipBytes(rest, n);
  }
}
