import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { collectEntries, zipArchive, type ZipEntry } from './zip-stream';

/** Writes the zip to `file`, returning the size it announced and the bytes it wrote. */
async function zipEntriesToFile(entries: ZipEntry[], file: string) {
  const zip = zipArchive(entries);
  const out = fs.createWriteStream(file);
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  await zip.writeTo(out);
  await closed;
  return { size: zip.size, length: fs.statSync(file).size };
}

async function zipToFile(dir: string, name: string, file: string) {
  return zipEntriesToFile(await collectEntries([{ host: dir, name }], async () => true, 100_000), file);
}

/** A sink that skips runs of zero bytes (they stay holes), so a zip of a 4 GiB sparse file costs no disk. */
function sparseSink(file: string) {
  const fd = fs.openSync(file, 'w');
  const zeros = Buffer.alloc(1024 * 1024);
  let pos = 0;
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (!chunk.equals(zeros.subarray(0, chunk.length))) fs.writeSync(fd, chunk, 0, chunk.length, pos);
      pos += chunk.length;
      cb();
    },
    final(cb) {
      fs.ftruncateSync(fd, pos);
      fs.closeSync(fd);
      cb();
    },
  });
}

describe('zip stream', () => {
  const tmp = makeTempDir('efile-zip-');
  afterAll(() => tmp.cleanup());

  it.each([3, 1500])(
    'announces the exact size for %i files (small and >64 KiB central directory)',
    async (count) => {
      const dir = path.join(tmp.dir, `d${count}`);
      fs.mkdirSync(dir);
      for (let i = 0; i < count; i++)
        fs.writeFileSync(path.join(dir, `文件-${'x'.repeat(20)}-${i}.txt`), String(i));
      const file = path.join(tmp.dir, `d${count}.zip`);
      const { size, length } = await zipToFile(dir, 'd', file);
      expect(length).toBe(size);
      execFileSync('unzip', ['-tq', file]);
    },
  );

  it('stores every byte of empty, small, exactly 1 MiB and multi-MiB files with valid CRCs (unzip -t)', async () => {
    const dir = path.join(tmp.dir, 'mixed');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    const sizes = [0, 1, 4095, 100_000, 1024 * 1024, 1024 * 1024 + 1, 5 * 1024 * 1024 + 17];
    const data = new Map<string, Buffer>();
    sizes.forEach((n, i) => {
      const name = i % 2 ? `sub/f${i}.bin` : `f${i}.bin`;
      data.set(name, crypto.randomBytes(n));
      fs.writeFileSync(path.join(dir, name), data.get(name)!);
    });
    const file = path.join(tmp.dir, 'mixed.zip');
    const { size, length } = await zipToFile(dir, 'mixed', file);
    expect(length).toBe(size);
    execFileSync('unzip', ['-tq', file]);
    for (const [name, bytes] of data) {
      const out = execFileSync('unzip', ['-p', file, `mixed/${name}`], { maxBuffer: 64 * 1024 * 1024 });
      expect(out.equals(bytes)).toBe(true);
    }
  });

  it('archives a file as large as it was when collected, even if it grows meanwhile', async () => {
    const dir = path.join(tmp.dir, 'grow');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a.log'), 'first\n');
    const entries = await collectEntries([{ host: dir, name: 'grow' }], async () => true, 10);
    fs.appendFileSync(path.join(dir, 'a.log'), 'second\n');
    const file = path.join(tmp.dir, 'grow.zip');
    const { size, length } = await zipEntriesToFile(entries, file);
    expect(length).toBe(size);
    expect(execFileSync('unzip', ['-p', file, 'grow/a.log']).toString()).toBe('first\n');
  });

  it.each(['vanished', 'shrank'])(
    'fails and destroys the output (no crash, no unhandled rejection) when a file %s after collection',
    async (what) => {
      const dir = path.join(tmp.dir, what);
      fs.mkdirSync(dir);
      for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(dir, `f${i}`), 'x'.repeat(100_000));
      const entries = await collectEntries([{ host: dir, name: what }], async () => true, 100);
      if (what === 'vanished') fs.rmSync(path.join(dir, 'f20'));
      else fs.truncateSync(path.join(dir, 'f20'), 99_999);
      const out = fs.createWriteStream(path.join(tmp.dir, `${what}.zip`));
      // A file stream reports the write it had in flight when destroyed as an error (a response does not).
      out.on('error', () => undefined);
      await expect(zipArchive(entries).writeTo(out)).rejects.toBeTruthy();
      expect(out.destroyed).toBe(true);
    },
  );

  it('stops reading and closes every file when the client goes away', async () => {
    const dir = path.join(tmp.dir, 'leave');
    fs.mkdirSync(dir);
    for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(dir, `f${i}`), crypto.randomBytes(50_000));
    const fdCount = () => fs.readdirSync('/proc/self/fd').length;
    const before = fdCount();
    const entries = await collectEntries([{ host: dir, name: 'leave' }], async () => true, 1000);
    let written = 0;
    const out: Writable = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        cb();
        out.destroy();
      },
    });
    await zipArchive(entries).writeTo(out);
    expect(written).toBeLessThanOrEqual(1024 * 1024);
    for (let i = 0; i < 50 && fdCount() > before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fdCount()).toBeLessThanOrEqual(before);
  });

  it('keeps every byte of 400 files whose sizes fall across block boundaries (extracted and compared)', async () => {
    const dir = path.join(tmp.dir, 'many');
    fs.mkdirSync(path.join(dir, 'a/b'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'empty'));
    const data = new Map<string, Buffer>();
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 400; i++) {
      const name = ['', 'a/', 'a/b/'][i % 3] + `f${i}.bin`;
      data.set(name, crypto.randomBytes(i % 50 === 0 ? 1024 * 1024 + rand(3) - 1 : rand(300_000)));
      fs.writeFileSync(path.join(dir, name), data.get(name)!);
    }
    const file = path.join(tmp.dir, 'many.zip');
    const { size, length } = await zipToFile(dir, 'many', file);
    expect(length).toBe(size);
    const outDir = path.join(tmp.dir, 'many-out');
    execFileSync('unzip', ['-q', file, '-d', outDir]);
    for (const [name, bytes] of data)
      expect(fs.readFileSync(path.join(outDir, 'many', name)).equals(bytes), name).toBe(true);
    expect(fs.statSync(path.join(outDir, 'many/empty')).isDirectory()).toBe(true);
  });

  it('lays a folder out in name order, whatever order its lstats finish in', async () => {
    // 32 lstats run at once: with entries added as each finished, a 4 GiB file could come after its small sibling.
    const dir = path.join(tmp.dir, 'ordered');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    for (let i = 0; i < 300; i++)
      fs.writeFileSync(path.join(dir, `f${String(i).padStart(3, '0')}`), 'x'.repeat(i));
    fs.writeFileSync(path.join(dir, 'sub', 'inner'), 'y');
    const names = (await collectEntries([{ host: dir, name: 'ordered' }], async () => true, 1000)).map(
      (e) => e.name,
    );
    const inFolder = names.filter((n) => /^ordered\/[^/]+\/?$/.test(n));
    expect(inFolder).toEqual([...inFolder].sort());
    expect(names).toContain('ordered/sub/inner');
  });

  it('writes the ZIP64 end records for 70,000 entries (unzip -t and the count)', async () => {
    const dir = path.join(tmp.dir, 'count');
    fs.mkdirSync(dir);
    for (let i = 0; i < 70_000; i++) fs.writeFileSync(path.join(dir, `${i}`), i % 1000 ? '' : String(i));
    const file = path.join(tmp.dir, 'count.zip');
    const { size, length } = await zipToFile(dir, 'count', file);
    expect(length).toBe(size);
    execFileSync('unzip', ['-tq', file]);
    const listed = execFileSync('unzip', ['-Z1', file], { maxBuffer: 64 * 1024 * 1024 })
      .toString()
      .trim();
    expect(listed.split('\n')).toHaveLength(70_001);
    expect(execFileSync('unzip', ['-p', file, 'count/69000']).toString()).toBe('69000');
  }, 120_000);

  it('stores a file of 4 GiB and more with ZIP64 sizes, and a file after it with a ZIP64 offset', async () => {
    const dir = path.join(tmp.dir, 'huge');
    fs.mkdirSync(dir);
    const bigSize = 2 ** 32 + 5;
    // Sparse: no disk used, reads as zeros except the tail.
    const fd = fs.openSync(path.join(dir, 'a-big.bin'), 'w');
    fs.writeSync(fd, Buffer.from('tail!'), 0, 5, bigSize - 5);
    fs.closeSync(fd);
    fs.writeFileSync(path.join(dir, 'b-after.txt'), '大文件之后');
    const entries = await collectEntries([{ host: dir, name: 'huge' }], async () => true, 10);
    const zip = zipArchive(entries);
    const file = path.join(tmp.dir, 'huge.zip');
    const sink = sparseSink(file);
    const closed = new Promise<void>((resolve) => sink.once('close', () => resolve()));
    await zip.writeTo(sink);
    await closed;
    expect(fs.statSync(file).size).toBe(zip.size);
    // Python's zipfile reads the ZIP64 fields and checks every CRC as fast as zlib can (unzip -t takes 25 s on
    // 4 GiB here); unzip then extracts the file that only a correct ZIP64 offset can find.
    const check = [
      'import sys, zipfile',
      'z = zipfile.ZipFile(sys.argv[1])',
      'assert z.testzip() is None',
      'print(*[f"{i.filename}:{i.file_size}:{i.compress_size}:{i.header_offset}" for i in z.infolist()])',
    ].join('\n');
    const infos = execFileSync('python3', ['-c', check, file]).toString().trim().split(' ');
    expect(infos[0]).toBe('huge/:0:0:0');
    expect(infos[1]).toBe(`huge/a-big.bin:${bigSize}:${bigSize}:${infos[1]!.split(':')[3]}`);
    const afterOffset = Number(infos[2]!.split(':')[3]);
    expect(afterOffset).toBeGreaterThan(2 ** 32);
    expect(execFileSync('unzip', ['-p', file, 'huge/b-after.txt']).toString()).toBe('大文件之后');
    // The big file's data descriptor, right before the next local header: 24 bytes with 8-byte sizes.
    const desc = Buffer.alloc(24);
    const zfd = fs.openSync(file, 'r');
    fs.readSync(zfd, desc, 0, 24, afterOffset - 24);
    fs.closeSync(zfd);
    expect(desc.readUInt32LE(0)).toBe(0x08074b50);
    expect(desc.readBigUInt64LE(8)).toBe(BigInt(bigSize));
    expect(desc.readBigUInt64LE(16)).toBe(BigInt(bigSize));
  }, 300_000);
});
