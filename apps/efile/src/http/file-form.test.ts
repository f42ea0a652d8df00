import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { multipartBoundary, readFileForm, type FileFormLimits } from './file-form';

const B = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
const limits: FileFormLimits = { fields: 40, headBytes: 16 * 1024, fileBytes: 1 << 20 };

function body(fields: Record<string, string>, file: Buffer, filename = '数据 "a".bin', epilogue = '--\r\n') {
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${B}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${B}\r\nContent-Disposition: form-data; name="file"; filename="${filename.replace(/"/g, '\\"')}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${B}${epilogue}`)]);
}

/** The body as a stream cut at the given offsets (pieces of any size, down to single bytes). */
const streamOf = (buf: Buffer, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let prev = 0;
  for (const c of [...at, buf.length]) {
    if (c > prev) pieces.push(buf.subarray(prev, c));
    prev = c;
  }
  return Readable.from(pieces, { objectMode: false });
};

async function read(stream: Readable, l = limits, length: number) {
  const form = await readFileForm(stream, B, l);
  const parts: Buffer[] = [];
  for await (const p of form.file(length)) parts.push(p);
  form.discard();
  return { fields: form.fields, filename: form.filename, file: Buffer.concat(parts) };
}

describe('readFileForm (the chunk upload body)', () => {
  it('reads the fields and the file, however the body is cut into pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 3000 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        // Data that looks like the start of the delimiter (up to one byte short of it) must stay data.
        fc.constantFrom('', '\r\n', `\r\n--${B.slice(0, 10)}`, `\r\n--${B}`.slice(0, -1)),
        async (bytes, cuts, trap) => {
          const file = Buffer.concat([Buffer.from(trap), Buffer.from(bytes), Buffer.from(trap)]);
          fc.pre(!file.includes(`\r\n--${B}`)); // a valid body never holds its delimiter in the data
          const fields = { chunkNumber: '3', relativePath: '目录/名字.txt', path: '/public/home/demo' };
          const got = await read(streamOf(body(fields, file), cuts), limits, file.length);
          expect(got.fields).toEqual(fields);
          expect(got.filename).toBe('数据 "a".bin');
          expect(got.file.equals(file)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('passes a large file through in the pieces it arrived in, without copying', async () => {
    const file = crypto.randomBytes(1 << 20);
    const raw = body({ a: '1' }, file);
    const pieces = Array.from({ length: Math.ceil(raw.length / 65536) }, (_, i) =>
      raw.subarray(i * 65536, (i + 1) * 65536),
    );
    const form = await readFileForm(Readable.from(pieces), B, limits);
    const out: Buffer[] = [];
    for await (const p of form.file(file.length)) out.push(p);
    expect(Buffer.concat(out).equals(file)).toBe(true);
    expect(out.filter((p) => pieces.some((q) => q.buffer === p.buffer)).length).toBeGreaterThan(
      out.length - 3,
    );
  });

  it('refuses what is not the expected shape with 1003, and a too large file with 1011', async () => {
    const fail = (s: Readable, l = limits, length = 1) =>
      read(s, l, length).then(
        () => 'read',
        (e: { code?: string }) => e.code,
      );
    const noFile = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${B}--\r\n`);
    expect(await fail(Readable.from([noFile]))).toBe('1003');
    const cutShort = body({ a: '1' }, Buffer.alloc(100)).subarray(0, 200);
    expect(await fail(Readable.from([cutShort]), limits, 100)).toBe('1003');
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 'x']));
    expect(await fail(Readable.from([body(many, Buffer.alloc(1))]))).toBe('1003');
    const big = { big: 'x'.repeat(20 * 1024) };
    expect(await fail(Readable.from([body(big, Buffer.alloc(1))]))).toBe('1003');
    const over = body({}, Buffer.alloc(2048));
    expect(await fail(Readable.from([over]), { ...limits, fileBytes: 1024 }, 2048)).toBe('1011');
    expect(await fail(Readable.from([Buffer.from('garbage without a boundary')]))).toBe('1003');
    // With an announced length: more or fewer bytes than announced.
    const ten = body({}, Buffer.alloc(10));
    const failLength = (n: number) =>
      read(Readable.from([ten]), limits, n).then(
        () => 'read',
        (e: { code?: string }) => e.code,
      );
    expect([await failLength(9), await failLength(11), await failLength(100)]).toEqual([
      '1010',
      '1010',
      '1010',
    ]);
  });

  it('reports a body cut off by the client as 1010 (not a server fault)', async () => {
    const raw = body({ a: '1' }, Buffer.alloc(4096));
    const cut = new Readable({ read() {} });
    cut.push(raw.subarray(0, 300));
    const reading = read(cut, limits, 4096);
    setImmediate(() => cut.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    await expect(reading).rejects.toMatchObject({ code: '1010' });
  });

  it('takes the boundary from the content type, quoted or not', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary('multipart/form-data')).toBeNull();
  });
});
