import type { Readable } from 'node:stream';

/** One entry of a tar stream: header fields we use, and a reader for exactly its data. */
export interface TarEntry {
  path: string;
  type: 'file' | 'dir' | 'other';
  size: number;
  mode: number;
}

/** Reads exact byte counts from a stream (tar is 512-byte blocks). */
class BlockReader {
  private buf: Buffer = Buffer.alloc(0);
  private readonly it: AsyncIterator<Buffer>;
  private done = false;
  constructor(stream: Readable) {
    this.it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }
  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.done) {
      const r = await this.it.next();
      if (r.done) this.done = true;
      else this.buf = this.buf.length === 0 ? r.value : Buffer.concat([this.buf, r.value]);
    }
    return this.buf.length >= n;
  }
  async read(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) return null;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
  /** Hands out up to `max` bytes as they arrive (for streaming file data without buffering it whole). */
  async some(max: number): Promise<Buffer | null> {
    if (!(await this.fill(1))) return null;
    const out = this.buf.subarray(0, Math.min(max, this.buf.length));
    this.buf = this.buf.subarray(out.length);
    return out;
  }
}

const str = (b: Buffer, start: number, len: number) => {
  const s = b.subarray(start, start + len);
  const z = s.indexOf(0);
  return (z >= 0 ? s.subarray(0, z) : s).toString('utf8');
};
function num(b: Buffer, start: number, len: number): number {
  // GNU base-256 for sizes over 8 GiB.
  if ((b[start]! & 0x80) !== 0) {
    let v = 0;
    for (let i = start + 1; i < start + len; i++) v = v * 256 + b[i]!;
    return v;
  }
  return parseInt(str(b, start, len).trim() || '0', 8);
}
function pax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    if (sp < 0) break;
    const len = Number(data.subarray(i, sp).toString());
    if (!len) break;
    const rec = data.subarray(sp + 1, i + len - 1).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

/**
 * A streaming reader of ustar/pax/GNU tar (what `tar -cf -` writes). For each entry it calls `onEntry` with a
 * function yielding the entry's data in pieces; data not consumed is skipped. Paths are returned raw: the caller
 * validates them (no absolute paths, no `..`, no links).
 */
export async function readTar(
  stream: Readable,
  onEntry: (e: TarEntry, data: () => AsyncGenerator<Buffer>) => Promise<void>,
): Promise<void> {
  const r = new BlockReader(stream);
  let longName: string | null = null;
  let paxPath: string | null = null;
  for (;;) {
    const h = await r.read(512);
    if (!h || h.every((x) => x === 0)) return;
    const flag = String.fromCharCode(h[156]!);
    const size = num(h, 124, 12);
    const padded = Math.ceil(size / 512) * 512;
    if (flag === 'L' || flag === 'x' || flag === 'g') {
      const data = (await r.read(padded))?.subarray(0, size);
      if (!data) throw new Error('truncated tar');
      if (flag === 'L') longName = str(data, 0, data.length);
      if (flag === 'x') paxPath = pax(data).path ?? null;
      continue;
    }
    const prefix = h.subarray(257, 262).toString() === 'ustar' ? str(h, 345, 155) : '';
    const name = paxPath ?? longName ?? (prefix ? `${prefix}/${str(h, 0, 100)}` : str(h, 0, 100));
    longName = paxPath = null;
    const type = flag === '0' || flag === '\0' || flag === '7' ? 'file' : flag === '5' ? 'dir' : 'other';
    let left = size;
    async function* data() {
      while (left > 0) {
        const piece = await r.some(Math.min(left, 1024 * 1024));
        if (!piece) throw new Error('truncated tar');
        left -= piece.length;
        yield piece;
      }
    }
    await onEntry({ path: name, type, size, mode: num(h, 100, 8) }, data);
    // Skip unread data and the block padding.
    for await (const _ of data()) void _;
    const pad = padded - size;
    if (pad > 0 && !(await r.read(pad))) throw new Error('truncated tar');
  }
}
