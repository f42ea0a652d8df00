import { describe, expect, it } from 'vitest';
import { CommonCodes } from '@hpc/contracts';
import { readSmallFiles, smallFilesBody, type SmallFilesHead } from './wire';

describe('a request of small files', () => {
  const head: SmallFilesHead = {
    scope: { cun: 'u1', roots: ['/h/u1'] },
    overwrite: false,
    files: [
      { dir: '/h/u1/a', name: '数据.txt', sha256: 'x'.repeat(64), size: 3 },
      { dir: '/h/u1/a', name: 'empty', sha256: 'y'.repeat(64), size: 0 },
      { dir: '/h/u1/b', name: 'c', sha256: 'z'.repeat(64), size: 4 },
    ],
  };
  const data = [[Buffer.from('ab'), Buffer.from('c')], [], [Buffer.from('defg')]];
  /** The body as the socket may cut it: in pieces of `n` bytes. */
  const cut = (body: Buffer, n: number) => {
    const out: Buffer[] = [];
    for (let i = 0; i < body.length; i += n) out.push(body.subarray(i, i + n));
    return out;
  };

  it('reads back each file with its own bytes, however the body is cut', async () => {
    const body = Buffer.concat(smallFilesBody(head, data));
    for (const n of [1, 7, body.length]) {
      const got = await readSmallFiles(cut(body, n) as unknown as AsyncIterable<Buffer>);
      expect(got.scope).toEqual(head.scope);
      expect(got.overwrite).toBe(false);
      expect(got.files.map((f) => [f.name, f.dir, f.data.toString()])).toEqual([
        ['数据.txt', '/h/u1/a', 'abc'],
        ['empty', '/h/u1/a', ''],
        ['c', '/h/u1/b', 'defg'],
      ]);
    }
  });

  it('refuses a body that does not add up (invalid input), and one over the limit', async () => {
    const body = Buffer.concat(smallFilesBody(head, data));
    const lied = Buffer.concat(
      smallFilesBody({ ...head, files: [{ ...head.files[0]!, size: 99 }, ...head.files.slice(1)] }, data),
    );
    const negative = Buffer.concat(smallFilesBody({ ...head, files: [{ ...head.files[0]!, size: -1 }] }, []));
    const fraction = Buffer.concat(
      smallFilesBody({ ...head, files: [{ ...head.files[0]!, size: 1.5 }] }, []),
    );
    const text = Buffer.concat(
      smallFilesBody({ ...head, files: [{ ...head.files[0]!, size: '3' as unknown as number }] }, [data[0]!]),
    );
    const headLength = Buffer.alloc(4);
    headLength.writeUInt32BE(1_000_000);
    for (const bad of [
      body.subarray(0, body.length - 1), // a file cut short
      Buffer.concat([body, Buffer.from('x')]), // bytes no file claims
      lied,
      negative,
      fraction,
      text, // a size that is not a number, though its bytes are there
      Buffer.concat([headLength, Buffer.from('{}')]), // a head longer than the body
      Buffer.concat([Buffer.from([0, 0, 0, 2]), Buffer.from('{x')]), // not JSON
      Buffer.from([0, 0]),
    ]) {
      await expect(readSmallFiles([bad] as unknown as AsyncIterable<Buffer>)).rejects.toMatchObject({
        code: CommonCodes.invalidInput,
      });
    }
    await expect(
      readSmallFiles([body] as unknown as AsyncIterable<Buffer>, body.length - 1),
    ).rejects.toMatchObject({ code: CommonCodes.invalidInput });
  });
});
