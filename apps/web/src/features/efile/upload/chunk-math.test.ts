import { describe, expect, it } from 'vitest';
import { chunkIdentifier, chunkRange, smoothSpeed, totalChunks } from './chunk-math';

const MiB = 1024 * 1024;

describe('chunk geometry', () => {
  it('puts the remainder into the last chunk', () => {
    expect(totalChunks(0, MiB)).toBe(1);
    expect(totalChunks(MiB - 1, MiB)).toBe(1);
    expect(totalChunks(2.5 * MiB, MiB)).toBe(2);
    expect(chunkRange(2, 2.5 * MiB, MiB)).toEqual({ start: MiB, end: 2.5 * MiB });
    expect(chunkRange(1, 2.5 * MiB, MiB)).toEqual({ start: 0, end: MiB });
    expect(chunkRange(1, 10, MiB)).toEqual({ start: 0, end: 10 });
  });
  it('builds identifiers like simple-uploader', () => {
    expect(chunkIdentifier(12, 'dir/a b.txt')).toBe('12-dirabtxt');
  });
  it('smooths the speed', () => {
    expect(smoothSpeed(0, 100, 0.1)).toBe(100);
    expect(smoothSpeed(100, 200, 0.1)).toBeCloseTo(110);
  });
});
