import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chunkFields,
  chunkGeometryFault,
  chunkIdentifier,
  chunkMultipart,
  chunkRange,
  totalChunks,
} from './chunk-protocol';

const MiB = 1024 * 1024;
/** A file and its chunk size: sizes up to 64 GiB, chunks from 1 byte to 64 MiB. */
const geometry = fc.record({
  size: fc.oneof(fc.integer({ min: 0, max: 4096 }), fc.integer({ min: 0, max: 64 * 1024 * MiB })),
  chunkSize: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 * MiB })),
});
/** The chunks of one file, enumerated only where there are few; otherwise a sample of numbers. */
const numbersOf = (total: number) =>
  total <= 100
    ? Array.from({ length: total }, (_, i) => i + 1)
    : [1, 2, total - 1, total, Math.ceil(total / 2)].filter((n) => n >= 1 && n <= total);

describe('chunk geometry', () => {
  it('puts the remainder into the last chunk', () => {
    expect(totalChunks(0, MiB)).toBe(1);
    expect(totalChunks(MiB - 1, MiB)).toBe(1);
    expect(totalChunks(2.5 * MiB, MiB)).toBe(2);
    expect(chunkRange(2, 2.5 * MiB, MiB)).toEqual({ start: MiB, end: 2.5 * MiB });
    expect(chunkRange(1, 2.5 * MiB, MiB)).toEqual({ start: 0, end: MiB });
    expect(chunkRange(1, 10, MiB)).toEqual({ start: 0, end: 10 });
  });

  it('cuts every file into contiguous chunks that cover it exactly', () => {
    fc.assert(
      fc.property(geometry, ({ size, chunkSize }) => {
        const total = totalChunks(size, chunkSize);
        expect(total).toBeGreaterThanOrEqual(1);
        expect(chunkRange(1, size, chunkSize).start).toBe(0);
        expect(chunkRange(total, size, chunkSize).end).toBe(size);
        for (const n of numbersOf(total)) {
          const { start, end } = chunkRange(n, size, chunkSize);
          expect(start).toBe((n - 1) * chunkSize);
          if (n < total) {
            expect(end - start).toBe(chunkSize);
            expect(chunkRange(n + 1, size, chunkSize).start).toBe(end);
          } else if (size >= chunkSize) {
            // The last chunk carries the remainder: at least one chunk, less than two.
            expect(end - start).toBeGreaterThanOrEqual(chunkSize);
            expect(end - start).toBeLessThan(2 * chunkSize);
          } else expect(end - start).toBe(size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('accepts every chunk a client cuts, and nothing else', () => {
    fc.assert(
      fc.property(geometry, fc.integer({ min: -3, max: 3 }), ({ size, chunkSize }, delta) => {
        const total = totalChunks(size, chunkSize);
        for (const n of numbersOf(total)) {
          const f = chunkFields({ size, chunkSize, relativePath: 'a.bin', path: '/home' }, n);
          const g = {
            chunkNumber: Number(f.chunkNumber),
            chunkSize: Number(f.chunkSize),
            currentChunkSize: Number(f.currentChunkSize),
            totalSize: Number(f.totalSize),
            totalChunks: Number(f.totalChunks),
          };
          expect(chunkGeometryFault(g)).toBeNull();
          if (delta === 0) continue;
          if (g.currentChunkSize + delta >= 0)
            expect(chunkGeometryFault({ ...g, currentChunkSize: g.currentChunkSize + delta })).toBe('size');
          if (g.totalChunks + delta >= 1)
            expect(chunkGeometryFault({ ...g, totalChunks: g.totalChunks + delta })).toBe('numbers');
          if (delta > 0) expect(chunkGeometryFault({ ...g, chunkNumber: total + delta })).toBe('numbers');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('chunk requests', () => {
  it('builds identifiers like simple-uploader', () => {
    expect(chunkIdentifier(12, 'dir/a b.txt')).toBe('12-dirabtxt');
    fc.assert(
      fc.property(fc.nat(), fc.string(), (size, p) => {
        expect(chunkIdentifier(size, p)).toMatch(/^\d+-[0-9A-Za-z_-]*$/);
      }),
    );
  });

  it('sends the fields of spec §3 in simple-uploader order, the options only when set', () => {
    const file = { size: 2.5 * MiB, chunkSize: MiB, relativePath: 'd/e f.txt', path: '/home/u' };
    expect(chunkFields(file, 2)).toEqual({
      chunkNumber: '2',
      chunkSize: String(MiB),
      currentChunkSize: String(1.5 * MiB),
      totalSize: String(2.5 * MiB),
      identifier: `${2.5 * MiB}-deftxt`,
      filename: 'e f.txt',
      relativePath: 'd/e f.txt',
      totalChunks: '2',
      path: '/home/u',
    });
    const withOptions = chunkFields({ ...file, overwrite: false, identifier: 'id' }, 1, {
      folderFileCount: '3',
    });
    expect(Object.keys(withOptions).slice(-2)).toEqual(['overwrite', 'folderFileCount']);
    expect(withOptions.identifier).toBe('id');
  });

  it('frames a chunk as multipart/form-data that a standard parser reads back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 512 }),
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/["\r\n/\\]/.test(s)),
        async (bytes, name) => {
          const fields = chunkFields(
            { size: bytes.length, chunkSize: 64, relativePath: name, path: '/p' },
            1,
          );
          const boundary = '----chunkprotocoltest';
          const { head, tail } = chunkMultipart(fields, boundary, fields.filename!);
          const body = new Uint8Array([
            ...new TextEncoder().encode(head),
            ...bytes,
            ...new TextEncoder().encode(tail),
          ]);
          const form = await new Response(body, {
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          }).formData();
          for (const [k, v] of Object.entries(fields)) expect(form.get(k)).toBe(v);
          const file = form.get('file') as Blob;
          expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
        },
      ),
      { numRuns: 100 },
    );
  });
});
