import { describe, expect, it } from 'vitest';
import { nameProblem } from './validate-name';

describe('nameProblem (spec §5)', () => {
  it('refuses blanks, over 70 characters, slashes, controls and direction marks, and unchanged names', () => {
    expect(nameProblem('   ')).toBe('blank');
    expect(nameProblem('')).toBe('empty');
    expect(nameProblem('a'.repeat(71))).toBe('tooLong');
    expect(nameProblem('a'.repeat(70))).toBeNull();
    expect(nameProblem('a/b')).toBe('slash');
    expect(nameProblem('invoice\u202Efdp.sh')).toBe('unshowable');
    expect(nameProblem('a\tb')).toBe('unshowable');
    expect(nameProblem('x.txt', { original: 'x.txt' })).toBe('notModified');
    expect(nameProblem('y.txt', { original: 'x.txt' })).toBeNull();
  });
});
