import { describe, expect, it } from 'vitest';
import { validityProblem } from './share-validity';

describe('validityProblem', () => {
  it('requires a whole number of days between 1 and the maximum', () => {
    expect(validityProblem('', 30)).toBe('empty');
    expect(validityProblem('  ', 30)).toBe('empty');
    expect(validityProblem('0', 30)).toBe('incorrect');
    expect(validityProblem('1.5', 30)).toBe('incorrect');
    expect(validityProblem('-3', 30)).toBe('incorrect');
    expect(validityProblem('abc', 30)).toBe('incorrect');
    expect(validityProblem('31', 30)).toBe('tooLong');
    expect(validityProblem('30', 30)).toBeNull();
    expect(validityProblem('3', 30)).toBeNull();
  });
});
