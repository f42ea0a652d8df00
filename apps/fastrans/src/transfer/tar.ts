import { Readable } from 'node:stream';
import tar from 'tar-stream';

/**
 * Tar batches of small files, on `tar-stream` (the codec efile reads and writes them with, and the package build
 * uses): ustar headers with a pax `path` record for long names. Batches are at most a few MiB, so they are built
 * and parsed in memory.
 */
export async function tarPack(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const pack = tar.pack();
  const out = (async () => {
    const parts: Buffer[] = [];
    for await (const c of pack as unknown as AsyncIterable<Buffer>) parts.push(c);
    return Buffer.concat(parts);
  })();
  for (const e of entries) pack.entry({ name: e.name, size: e.data.length, mode: 0o644 }, e.data);
  pack.finalize();
  return out;
}

/** The regular files of an archive (folders and anything else are skipped). A malformed archive rejects. */
export async function tarUnpack(buf: Buffer): Promise<{ name: string; data: Buffer }[]> {
  const out: { name: string; data: Buffer }[] = [];
  const extract = tar.extract();
  await new Promise<void>((resolve, reject) => {
    extract.on('entry', (h, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => {
        if (h.type === 'file' || h.type === 'contiguous-file')
          out.push({ name: h.name, data: Buffer.concat(parts) });
        next();
      });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    Readable.from([buf]).pipe(extract);
  });
  return out;
}
