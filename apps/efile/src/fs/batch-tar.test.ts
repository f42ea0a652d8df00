import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { MalformedTarError, TAR_END, TarWriter, tarEntries, tarFiles, tarPack } from '@hpc/contracts';

/**
 * The batch tar of contracts (batch-tar.ts): the client writes upload batches and reads download batches with it,
 * efile reads buffered upload batches with it and writes download batches with tar-stream; checked here both ways
 * against tar-stream and against GNU tar's own archives.
 */

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
/** Entries as plain bytes, to compare with what a reader gave (views of its archive). */
const plainOf = (es: { name: string; data: Uint8Array }[]) =>
  es.map((e) => ({ name: e.name, data: Buffer.from(e.data) }));

/** What efile reads a batch with (tar-stream's extract): the regular files, names and data. */
async function extractWithTarStream(buf: Uint8Array) {
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
    Readable.from([Buffer.from(buf)]).pipe(extract);
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
  // A pax size record (what a writer puts for an entry past 8 GiB) is honoured over the header's.
  pack.entry({ name: 'sized', size: 3, pax: { size: '3' } } as tar.Headers, Buffer.from('abc'));
  pack.finalize();
  await done;
  return Buffer.concat(parts);
}

describe('tar batches, written and read in memory', () => {
  it('what the client writes, tar-stream (efile) reads back exactly, long and Chinese names included', async () => {
    expect(await extractWithTarStream(tarPack(files))).toEqual(files);
    expect(plainOf(tarFiles(tarPack(files)))).toEqual(files);
  });

  it('what tar-stream (efile) writes, the client reads back exactly; folders are skipped', async () => {
    const packed = await packWithTarStream(files);
    expect(packed.includes('size=3\n')).toBe(true);
    const out = tarEntries(packed);
    expect(plainOf(out.filter((e) => e.type === 'file'))).toEqual([
      ...files,
      { name: 'sized', data: Buffer.from('abc') },
    ]);
    expect(out.filter((e) => e.type !== 'file').map((e) => [e.name, e.type])).toEqual([['a-folder', 'dir']]);
  });

  it("reads GNU tar's own archives: long names, folders, a link as 'other'", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'batch-tar-'));
    try {
      const deep = path.join(dir, 'src', 'd'.repeat(120), '数据');
      fs.mkdirSync(deep, { recursive: true });
      fs.writeFileSync(path.join(deep, 'f.txt'), 'gnu');
      fs.symlinkSync('f.txt', path.join(deep, 'link'));
      for (const format of ['gnu', 'posix', 'ustar']) {
        let buf: Buffer;
        try {
          buf = execFileSync('tar', [`--format=${format}`, '-C', path.join(dir, 'src'), '-cf', '-', '.'], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        } catch (e) {
          // ustar cannot hold the 120-byte folder name: GNU tar refuses, as it should.
          if (format === 'ustar') continue;
          throw e;
        }
        const out = tarEntries(buf);
        const file = out.find((e) => e.name.endsWith('/数据/f.txt'));
        expect(file?.type, format).toBe('file');
        expect(Buffer.from(file!.data).toString()).toBe('gnu');
        expect(out.find((e) => e.name.endsWith('/link'))?.type, format).toBe('other');
        expect(out.find((e) => e.name.endsWith(`${'d'.repeat(120)}/`))?.type, format).toBe('dir');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a writer lays out entries whose data the caller fills in place', () => {
    const w = new TarWriter();
    const at = files.map((f) => w.add(f.name, f.data.length));
    const buf = Buffer.alloc(w.size());
    w.build(buf);
    files.forEach((f, i) => f.data.copy(buf, at[i]));
    expect(plainOf(tarFiles(buf))).toEqual(files);
  });

  it('an archive sent in pieces (no end blocks until TAR_END) reads as one; without TAR_END it is refused', async () => {
    const pieces = [tarPack(files.slice(0, 2), { end: false }), tarPack(files.slice(2), { end: false })];
    const whole = Buffer.concat([...pieces, TAR_END]);
    expect(plainOf(tarFiles(whole))).toEqual(files);
    expect(await extractWithTarStream(whole)).toEqual(files);
    expect(() => tarFiles(Buffer.concat(pieces))).toThrow(/past the end/);
  });

  it('refuses a damaged archive: a header that does not sum, an entry past the end, no end block', () => {
    const buf = tarPack(files);
    const bad = Buffer.from(buf);
    bad[3] = bad[3]! ^ 1;
    expect(() => tarEntries(bad)).toThrow(/checksum/);
    expect(() => tarEntries(buf.subarray(0, 600))).toThrow(MalformedTarError);
    expect(() => tarEntries(buf.subarray(0, 600))).toThrow(/past the end/);
    // Cut right after a whole entry: not a shorter archive, refused.
    expect(() => tarEntries(tarPack(files.slice(0, 1)).subarray(0, 1024))).toThrow(/past the end/);
  });
});
