import { describe, expect, it } from 'vitest';
import { roundRobinOrder, userIdHash } from './round-robin';

describe('userIdHash', () => {
  it('uses a numeric id as it is, whether number or text', () => {
    expect(userIdHash(7)).toBe(7);
    expect(userIdHash('7')).toBe(7);
    expect(userIdHash(' 12 ')).toBe(12);
  });

  it('hashes other ids to a stable non-negative 32-bit number', () => {
    const h = userIdHash('demo');
    expect(h).toBe(userIdHash('demo'));
    expect(h).toBeGreaterThanOrEqual(0);
    expect(h).toBeLessThan(2 ** 32);
    expect(userIdHash('wangwu')).not.toBe(h);
  });

  it('spreads many ids over the instances', () => {
    const counts = [0, 0, 0];
    for (let i = 0; i < 300; i++) counts[userIdHash(`user-${i}`) % 3]!++;
    for (const c of counts) expect(c).toBeGreaterThan(60);
  });
});

describe('roundRobinOrder', () => {
  it('starts at hash mod n and wraps around', () => {
    expect(roundRobinOrder(4, 3)).toEqual([1, 2, 0]);
    expect(roundRobinOrder('5', 3)).toEqual([2, 0, 1]);
    expect(roundRobinOrder(9, 1)).toEqual([0]);
  });

  it('has nothing to try when there are no candidates', () => {
    expect(roundRobinOrder(1, 0)).toEqual([]);
  });
});
