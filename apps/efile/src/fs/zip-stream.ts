import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { AppError } from '@hpc/server-kit';
import { mapLimit } from './concurrency';
import { openForRead } from './file-ops';
import { isInternalName } from './names';
import { useNativeCrc32ForYazl } from './native-crc32';

useNativeCrc32ForYazl();

export interface ZipSource {
  /** Real host path of a selected item. */
  host: string;
  /** Its name at the top of the archive. */
  name: string;
}

export interface ZipEntry {
  host: string;
  name: string;
  dir: boolean;
  size: number;
  mtime: Date;
  mode: number;
}

/**
 * Walks the selection into archive entries (lstat with bounded concurrency, folders iteratively). Links are
 * followed only to files that stay inside the user's roots, never to folders (no cycles, no escape). Refuses with
 * "1508" past `fileLimit` files so a huge folder fails fast, before any byte is sent.
 */
export async function collectEntries(
  sources: ZipSource[],
  inside: (realHost: string) => Promise<boolean>,
  fileLimit: number,
): Promise<ZipEntry[]> {
  const out: ZipEntry[] = [];
  let files = 0;
  const add = async (host: string, name: string): Promise<string | null> => {
    let st = await fs.lstat(host).catch(() => null);
    if (!st) return null;
    if (st.isSymbolicLink()) {
      const real = await fs.realpath(host).catch(() => null);
      if (!real || !(await inside(real))) return null;
      st = await fs.stat(real);
      if (!st.isFile()) return null;
      host = real;
    }
    if (st.isDirectory()) {
      out.push({ host, name: name + '/', dir: true, size: 0, mtime: st.mtime, mode: st.mode });
      return host;
    }
    if (!st.isFile()) return null;
    if (++files > fileLimit) {
      throw new AppError(
        '1508',
        `The selection has more than ${fileLimit} files: use the fast-transfer client or the Linux command to download it`,
      );
    }
    out.push({ host, name, dir: false, size: st.size, mtime: st.mtime, mode: st.mode });
    return null;
  };
  const stack: { host: string; name: string }[] = [];
  for (const s of sources) {
    const dir = await add(s.host, s.name);
    if (dir) stack.push({ host: dir, name: s.name });
  }
  while (stack.length > 0) {
    const d = stack.pop()!;
    const names = (await fs.readdir(d.host)).filter((n) => !isInternalName(n)).sort();
    const dirs = await mapLimit(names, 32, (n) => add(path.join(d.host, n), `${d.name}/${n}`));
    dirs.forEach((h, i) => h && stack.push({ host: h, name: `${d.name}/${names[i]}` }));
  }
  return out;
}

const MiB = 1024 * 1024;
/** Files up to this size are read whole, ahead of their turn; larger ones are opened ahead and streamed. */
const WHOLE_READ_MAX = MiB;
const AHEAD_FILES = 16;
const AHEAD_BYTES = 8 * MiB;

/** A readable that yields one buffer (the prefetched content of a small file). */
function bufferStream(buf: Buffer): Readable {
  return new Readable({
    read() {
      if (buf.length > 0) this.push(buf);
      this.push(null);
    },
  });
}

type Fetched = { buf: Buffer } | { fh: fs.FileHandle };

/**
 * Reads files ahead of yazl, which asks for one file at a time and would otherwise wait for every open and read
 * in turn (a 10,000 × 100 KB folder is 20,000 round trips to the thread pool, one after the other). Up to
 * AHEAD_FILES files and AHEAD_BYTES bytes are in flight: small files are read whole into a buffer of their exact
 * size (no 1 MiB stream buffer allocated and copied per file), larger ones are only opened. Each file is read up
 * to the size taken at collection time, the size the archive announced: a file that grew since is archived as it
 * was then, one that shrank fails the stream as before (yazl checks the byte count).
 */
class Prefetcher {
  /** Started and not yet taken, with what each holds in memory (its size, at most WHOLE_READ_MAX). */
  private readonly pending = new Map<number, { p: Promise<Fetched>; cost: number }>();
  private readonly open = new Set<fs.FileHandle>();
  private next = 0;
  private bytes = 0;
  private closed = false;

  constructor(private readonly files: ZipEntry[]) {}

  private start(i: number): void {
    const e = this.files[i]!;
    const cost = Math.min(e.size, WHOLE_READ_MAX);
    const p = (async (): Promise<Fetched> => {
      const fh = await openForRead(e.host);
      if (this.closed) {
        await fh.close();
        throw new Error('zip stream closed');
      }
      this.open.add(fh);
      if (e.size > WHOLE_READ_MAX) return { fh };
      try {
        const buf = Buffer.allocUnsafe(e.size);
        let got = 0;
        while (got < e.size) {
          const { bytesRead } = await fh.read(buf, got, e.size - got, got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return { buf: got === e.size ? buf : buf.subarray(0, got) };
      } finally {
        this.open.delete(fh);
        await fh.close();
      }
    })();
    // A prefetch nobody takes (the client left, an earlier file failed) must not become an unhandled rejection.
    p.catch(() => undefined);
    this.pending.set(i, { p, cost });
    this.bytes += cost;
  }

  private fill() {
    while (
      !this.closed &&
      this.next < this.files.length &&
      this.pending.size < AHEAD_FILES &&
      (this.pending.size === 0 || this.bytes < AHEAD_BYTES)
    )
      this.start(this.next++);
  }

  /** The i-th file's data (files are taken in order). */
  async take(i: number): Promise<Readable> {
    if (this.next <= i) this.next = i;
    this.fill();
    if (!this.pending.has(i)) this.start(i);
    const { p, cost } = this.pending.get(i)!;
    this.pending.delete(i);
    this.bytes -= cost;
    this.fill();
    const got = await p;
    if ('buf' in got) return bufferStream(got.buf);
    const e = this.files[i]!;
    const rs = got.fh.createReadStream({ start: 0, end: e.size - 1, highWaterMark: MiB });
    rs.once('close', () => this.open.delete(got.fh));
    if (this.closed) rs.destroy();
    return rs;
  }

  close() {
    this.closed = true;
    for (const fh of this.open) void fh.close().catch(() => undefined);
    this.open.clear();
  }
}

/**
 * A store-only zip (yazl: ZIP64 when an entry or offset needs it, UTF-8 names flagged) with its exact size computed
 * before the first byte, so the response carries Content-Length. Memory stays bounded: files are read a few ahead
 * (Prefetcher) and the output applies backpressure. `destroy()` closes the open files when the client goes away.
 */
export function zipStream(entries: ZipEntry[]): {
  stream: Readable;
  size: Promise<number>;
  destroy: () => void;
} {
  const zip = new ZipFile();
  const files = entries.filter((e) => !e.dir);
  const ahead = new Prefetcher(files);
  let current: Readable | null = null;
  let fileIndex = 0;
  for (const e of entries) {
    const meta = { mtime: e.mtime, mode: (e.mode & 0o7777) | (e.dir ? 0o40000 : 0o100000) };
    if (e.dir) {
      zip.addEmptyDirectory(e.name, meta);
      continue;
    }
    const i = fileIndex++;
    zip.addReadStreamLazy(e.name, { ...meta, compress: false, size: e.size }, (cb) => {
      ahead.take(i).then(
        (rs) => {
          current = rs;
          cb(null, rs);
        },
        (err: Error) => cb(err, undefined as unknown as Readable),
      );
    });
  }
  // yazl 3.3 predicts the ZIP64 end record once the central directory reaches 64 KiB but writes it only past
  // 4 GiB, so its computed size would be 76 bytes too large (and the download cut short). Forcing the ZIP64 end
  // record whenever the directory may reach 64 KiB makes both agree; small archives keep the classic record.
  const directoryUpperBound = entries.reduce((n, e) => n + 46 + 9 + 28 + Buffer.byteLength(e.name), 0);
  const forceZip64Format = directoryUpperBound >= 0xffff;
  // @types/yazl types the callback without its argument (the computed size, -1 when unknown).
  const end = zip.end.bind(zip) as (o: object, cb: (n: number) => void) => void;
  const size = new Promise<number>((resolve) => end({ forceZip64Format }, (n) => resolve(n)));
  const stream = zip.outputStream as Readable;
  // yazl reports a file that cannot be read (gone, shrunk) on the ZipFile itself; without a listener that `emit`
  // would throw inside a promise callback. Fail the output instead: the response stops short of its length.
  zip.on('error', (err: Error) => stream.destroy(err));
  return {
    stream,
    size,
    destroy() {
      ahead.close();
      current?.destroy();
      stream.destroy();
    },
  };
}
