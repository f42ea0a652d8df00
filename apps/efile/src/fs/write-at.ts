import type { FileHandle } from 'node:fs/promises';

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
