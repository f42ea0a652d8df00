import { describe, expect, it } from 'vitest';
import { formatSize, formatSpeed } from './format-size';

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
});
