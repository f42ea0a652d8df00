import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff';

describe('backoffMs', () => {
  const b = { baseMs: 500, maxMs: 30_000 };

  it('waits the base after the first failure and doubles per failure after it', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, b))).toEqual([500, 1000, 2000, 4000, 8000, 16000]);
  });

  it('never waits past the maximum, however many failures', () => {
    expect(backoffMs(7, b)).toBe(30_000);
    expect(backoffMs(10_000, b)).toBe(30_000);
  });

  it('treats no failure yet like the first', () => {
    expect(backoffMs(0, b)).toBe(500);
    expect(backoffMs(-3, b)).toBe(500);
  });
});
