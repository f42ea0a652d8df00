import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { TarWriter, tarPack, tarUnpack } from './tar';

/** The names a batch may carry: short, at the ustar limit, long (pax), Chinese, deep. */
const NAMES = [
  'a.txt',
  'x'.repeat(100),
  `${'d/'.repeat(60)}long-name.dat`,
  '结果/实验 1/数据.csv',
  'results/run-0042/out file (1).log',
];
const files = NAMES.map((name, i) => ({ name, data: Buffer.from(`${i}:`.repeat(i * 300 + 1)) }));
files.push({ name: 'empty', data: Buffer.alloc(0) });

/** What efile reads a batch with (tar-stream's extract): the regular files, names and data. */
async function extractWithTarStream(buf: Buffer) {
  const out: { name: string; data: Buffer }[] = [];
  const extract = tar.extract();
  await new Promise<void>((resolve, reject) => {
    extract.on('entry', (h, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => {
        if (h.type === 'file') out.push({ name: h.name, data: Buffer.concat(parts) });
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    Readable.from([buf]).pipe(extract);
  });
  return out;
}

/** What efile writes a download batch with (tar-stream's pack). */
async function packWithTarStream(entries: { name: string; data: Buffer }[]) {
  const pack = tar.pack();
  const parts: Buffer[] = [];
  const done = (async () => {
    for await (const c of pack as unknown as AsyncIterable<Buffer>) parts.push(c);
  })();
  for (const e of entries) pack.entry({ name: e.name, size: e.data.length, mode: 0o644 }, e.data);
  pack.entry({ name: 'a-folder', type: 'directory' });
  pack.finalize();
  await done;
  return Buffer.concat(parts);
}

describe('tar batches, written and read in memory', () => {
  it('what the client writes, tar-stream (efile) reads back exactly, long and Chinese names included', async () => {
    expect(await extractWithTarStream(tarPack(files))).toEqual(files);
  });

  it('what tar-stream (efile) writes, the client reads back exactly; folders are skipped', async () => {
    expect(tarUnpack(await packWithTarStream(files))).toEqual(files);
  });

  it('a writer lays out entries whose data the caller fills in place', () => {
    const w = new TarWriter();
    const at = files.map((f) => w.add(f.name, f.data.length));
    const buf = w.build();
    files.forEach((f, i) => f.data.copy(buf, at[i]));
    expect(tarUnpack(buf)).toEqual(files);
  });

  it('refuses a damaged archive: a header that does not sum, an entry past the end', () => {
    const buf = tarPack(files);
    const bad = Buffer.from(buf);
    bad[3] = bad[3]! ^ 1;
    expect(() => tarUnpack(bad)).toThrow(/checksum/);
    expect(() => tarUnpack(buf.subarray(0, 600))).toThrow(/past the end/);
  });
});
