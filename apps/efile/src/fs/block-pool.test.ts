import { describe, expect, it } from 'vitest';
import { giveRangeBuffer, takeRangeBuffer } from './block-pool';

const MiB = 1024 * 1024;

describe('range buffers of fast-transfer downloads', () => {
  it('lends a kept 16 MiB buffer again once given back, as a view of the size asked for', () => {
    const a = takeRangeBuffer(16 * MiB);
    const b = takeRangeBuffer(1000);
    expect(b.length).toBe(1000);
    expect(b.buffer).not.toBe(a.buffer);
    giveRangeBuffer(a);
    const c = takeRangeBuffer(5 * MiB);
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(5 * MiB);
    // Lent out, it is not lent twice.
    expect(takeRangeBuffer(16 * MiB).buffer).not.toBe(a.buffer);
    giveRangeBuffer(c);
    giveRangeBuffer(b);
  });

  it('does not keep a larger range buffer (up to 64 MiB): it is left to the collector', () => {
    const big = takeRangeBuffer(20 * MiB);
    expect(big.length).toBe(20 * MiB);
    giveRangeBuffer(big);
    expect(takeRangeBuffer(16 * MiB).buffer).not.toBe(big.buffer);
  });
});
