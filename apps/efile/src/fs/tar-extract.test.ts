import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tarPack } from '@hpc/contracts';
import { readTarWhole } from './tar-extract';

const archive = Buffer.from(
  tarPack([
    { name: 'a.txt', data: Buffer.from('alpha') },
    { name: 'd/b.txt', data: Buffer.from('beta') },
  ]),
);

/** What readTarWhole handed out: names, kinds and bytes, and the memory the bytes were views of. */
async function read(body: Buffer[], length: number, settled: () => Promise<unknown> = async () => undefined) {
  const got: { path: string; data: string; memory: ArrayBufferLike }[] = [];
  await readTarWhole(
    Readable.from(body),
    length,
    async (e, _data, whole) => {
      const [d] = await whole();
      got.push({ path: e.path, data: d!.toString(), memory: d!.buffer });
    },
    settled,
  );
  return got;
}

describe('a batch read whole (readTarWhole)', () => {
  it('hands out each entry in order, its bytes views of shared memory', async () => {
    const got = await read([archive.subarray(0, 700), archive.subarray(700)], archive.length);
    expect(got.map((g) => [g.path, g.data])).toEqual([
      ['a.txt', 'alpha'],
      ['d/b.txt', 'beta'],
    ]);
    expect(got[0]!.memory).toBeInstanceOf(SharedArrayBuffer);
  });

  it('refuses a body shorter or longer than declared, or not a whole archive, with 1010', async () => {
    await expect(read([archive], archive.length + 512)).rejects.toMatchObject({ code: '1010' });
    await expect(read([archive, Buffer.alloc(512)], archive.length)).rejects.toMatchObject({ code: '1010' });
    const cut = archive.subarray(0, 1024);
    await expect(read([cut], cut.length)).rejects.toMatchObject({ code: '1010' });
  });

  it('rethrows an error of the caller as it is', async () => {
    const mine = new Error('mine');
    await expect(
      readTarWhole(
        Readable.from([archive]),
        archive.length,
        () => Promise.reject(mine),
        async () => undefined,
      ),
    ).rejects.toBe(mine);
  });

  it('lends its memory to the next batch only once what the last one started has settled', async () => {
    let release!: () => void;
    const pending = new Promise<void>((r) => (release = r));
    let first: ArrayBufferLike | null = null;
    const one = read([archive], archive.length, () => pending).then((g) => (first = g[0]!.memory));
    // Meanwhile (the first batch's stores still under way) another batch gets other memory.
    await new Promise((r) => setTimeout(r, 20));
    const meanwhile = await read([archive], archive.length);
    release();
    await one;
    expect(meanwhile[0]!.memory).not.toBe(first);
    // Once settled, the next batch reads into memory that was kept.
    const later = await read([archive], archive.length);
    expect([first, meanwhile[0]!.memory]).toContain(later[0]!.memory);
  });
});
