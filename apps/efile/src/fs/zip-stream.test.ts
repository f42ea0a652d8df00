import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { collectEntries, zipStream } from './zip-stream';
import { useNativeCrc32ForYazl } from './native-crc32';

async function zipToFile(dir: string, name: string, file: string) {
  const entries = await collectEntries([{ host: dir, name }], async () => true, 10_000);
  const z = zipStream(entries);
  const size = await z.size;
  const parts: Buffer[] = [];
  for await (const c of z.stream) parts.push(c as Buffer);
  const body = Buffer.concat(parts);
  fs.writeFileSync(file, body);
  return { size, length: body.length };
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

  it('computes yazl CRCs with the native zlib.crc32, equal to the JavaScript ones', () => {
    expect(useNativeCrc32ForYazl()).toBe(true);
    const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
    const mod = fromYazl('buffer-crc32') as {
      unsigned: (b: Buffer, p?: number) => number;
      signed: (b: Buffer, p?: number) => number;
      efileNative?: boolean;
    };
    expect(mod.efileNative).toBe(true);
    const a = crypto.randomBytes(70_000);
    const b = crypto.randomBytes(3);
    // `signed` is untouched (the JavaScript table loop): the reference.
    expect(mod.unsigned(b, mod.unsigned(a))).toBe(mod.signed(b, mod.signed(a) >>> 0) >>> 0);
    expect(mod.unsigned(Buffer.alloc(0))).toBe(0);
  });

  it('archives a file as large as it was when collected, even if it grows meanwhile', async () => {
    const dir = path.join(tmp.dir, 'grow');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a.log'), 'first\n');
    const entries = await collectEntries([{ host: dir, name: 'grow' }], async () => true, 10);
    fs.appendFileSync(path.join(dir, 'a.log'), 'second\n');
    const z = zipStream(entries);
    const size = await z.size;
    const parts: Buffer[] = [];
    for await (const c of z.stream) parts.push(c as Buffer);
    const file = path.join(tmp.dir, 'grow.zip');
    fs.writeFileSync(file, Buffer.concat(parts));
    expect(Buffer.concat(parts).length).toBe(size);
    expect(execFileSync('unzip', ['-p', file, 'grow/a.log']).toString()).toBe('first\n');
  });

  it('fails the output stream (no crash, no unhandled rejection) when a file vanished after collection', async () => {
    const dir = path.join(tmp.dir, 'vanish');
    fs.mkdirSync(dir);
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(dir, `f${i}`), 'x'.repeat(1000));
    const entries = await collectEntries([{ host: dir, name: 'vanish' }], async () => true, 100);
    fs.rmSync(path.join(dir, 'f20'));
    const z = zipStream(entries);
    await z.size;
    await expect(
      (async () => {
        for await (const c of z.stream) void c;
      })(),
    ).rejects.toBeTruthy();
  });

  it('closes the files it read ahead when the client goes away', async () => {
    const dir = path.join(tmp.dir, 'leave');
    fs.mkdirSync(dir);
    for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(dir, `f${i}`), crypto.randomBytes(50_000));
    const fdCount = () => fs.readdirSync('/proc/self/fd').length;
    const before = fdCount();
    const entries = await collectEntries([{ host: dir, name: 'leave' }], async () => true, 1000);
    const z = zipStream(entries);
    await z.size;
    await new Promise<void>((resolve) => z.stream.once('data', () => resolve()));
    z.destroy();
    for (let i = 0; i < 50 && fdCount() > before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fdCount()).toBeLessThanOrEqual(before);
  });
});
