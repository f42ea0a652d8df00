import { describe, expect, it } from 'vitest';
import { formatSize, formatSizeExact, formatSpeed } from './format-size';

describe('formatSize (spec §9)', () => {
  it('shows bytes, KB without decimals, MB and GB with one', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1024)).toBe('1 KB');
    expect(formatSize(1536)).toBe('2 KB');
    expect(formatSize(1024 * 1024)).toBe('1.0 MB');
    expect(formatSize(1.25 * 1024 * 1024)).toBe('1.3 MB');
    expect(formatSize(3 * 1024 ** 3)).toBe('3.0 GB');
    expect(formatSize(5000 * 1024 ** 3)).toBe('5000.0 GB');
  });
  it('refuses nonsense', () => {
    expect(formatSize(-1)).toBe('-');
    expect(formatSize(Number.NaN)).toBe('-');
  });
  it('formats speeds', () => expect(formatSpeed(2 * 1024 * 1024)).toBe('2.0 MB/s'));

  it('has a second formatter with two decimals up to TB (spec §9)', () => {
    expect(formatSizeExact(0)).toBe('0 B');
    expect(formatSizeExact(1023)).toBe('1023 B');
    expect(formatSizeExact(1536)).toBe('1.50 KB');
    expect(formatSizeExact(5 * 1024 ** 2 + 123)).toBe('5.00 MB');
    expect(formatSizeExact(1.25 * 1024 ** 3)).toBe('1.25 GB');
    expect(formatSizeExact(3 * 1024 ** 4)).toBe('3.00 TB');
    expect(formatSizeExact(2048 * 1024 ** 4)).toBe('2048.00 TB');
    expect(formatSizeExact(-1)).toBe('-');
  });
});
