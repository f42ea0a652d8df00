import { describe, expect, it } from 'vitest';
import { AppError } from '@hpc/server-kit';
import { fromWire, jsonLines, toWire, type WireError } from './wire-format';

describe("a worker's JSON lines", () => {
  it('keeps a file name whose UTF-8 is split between two pieces of the socket', async () => {
    const all = Buffer.from(
      JSON.stringify({ rel: '数据/结果.bin' }) + '\n' + JSON.stringify({ done: true }) + '\n',
    );
    // Cut inside the three bytes of 数 (it starts at byte 8).
    const pieces = [all.subarray(0, 9), all.subarray(9, 20), all.subarray(20)];
    const got: unknown[] = [];
    for await (const line of jsonLines(pieces)) got.push(line);
    expect(got).toEqual([{ rel: '数据/结果.bin' }, { done: true }]);
  });
});

describe('an error across the wire', () => {
  it("keeps its Chinese; the system's own error is said by its errno in both languages", () => {
    const across = (e: unknown) => JSON.parse(JSON.stringify(toWire(e))) as WireError;
    const back = fromWire(across(new AppError('1022', { en: 'Not a folder: /x', zh: '不是文件夹：/x' })));
    expect(back).toMatchObject({ code: '1022', message: 'Not a folder: /x', zh: '不是文件夹：/x' });
    // The system's own error: its errno only, in both languages, never its text with host paths.
    const sys = Object.assign(
      new Error("EISDIR: illegal operation on a directory, open '/proc/self/fd/23/sub'"),
      {
        code: 'EISDIR',
      },
    );
    const plain = fromWire(across(sys));
    expect(plain).toMatchObject({ code: '1001', zh: expect.stringContaining('（EISDIR）') });
    expect(plain.message).toContain('(EISDIR)');
    expect(JSON.stringify(across(sys))).not.toContain('/proc/');
  });
});
