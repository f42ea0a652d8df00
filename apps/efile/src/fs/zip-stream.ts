import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { AppError } from '@hpc/server-kit';
import { mapLimit } from './concurrency';
import { openForRead } from './file-ops';
import { isInternalName } from './names';

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

/**
 * A store-only zip (yazl: ZIP64 when an entry or offset needs it, UTF-8 names flagged) with its exact size computed
 * before the first byte, so the response carries Content-Length. Memory stays constant: one file is open at a time
 * and the output applies backpressure. `destroy()` closes the open file when the client goes away.
 */
export function zipStream(entries: ZipEntry[]): {
  stream: Readable;
  size: Promise<number>;
  destroy: () => void;
} {
  const zip = new ZipFile();
  let current: Readable | null = null;
  for (const e of entries) {
    const meta = { mtime: e.mtime, mode: (e.mode & 0o7777) | (e.dir ? 0o40000 : 0o100000) };
    if (e.dir) {
      zip.addEmptyDirectory(e.name, meta);
      continue;
    }
    zip.addReadStreamLazy(e.name, { ...meta, compress: false, size: e.size }, (cb) => {
      openForRead(e.host).then(
        (fh) => {
          current = fh.createReadStream({ highWaterMark: 1024 * 1024 });
          cb(null, current);
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
  return {
    stream,
    size,
    destroy() {
      current?.destroy();
      stream.destroy();
    },
  };
}
