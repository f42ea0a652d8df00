import { describe, expect, it } from 'vitest';
import { smoothSpeed } from './chunk-math';

// The chunk geometry is tested with the shared protocol (packages/contracts/src/chunk-protocol.test.ts).
describe('upload speed', () => {
  it('smooths the speed', () => {
    expect(smoothSpeed(0, 100, 0.1)).toBe(100);
    expect(smoothSpeed(100, 200, 0.1)).toBeCloseTo(110);
  });
});
