import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTRIES, entriesOf, moveEntry } from './entries';

describe('dashboard quick entries', () => {
  it('falls back to the default set only when never chosen, and drops unknown ids', () => {
    expect(entriesOf(null)).toEqual(DEFAULT_ENTRIES);
    expect(entriesOf([])).toEqual([]);
    expect(entriesOf(['efile', 'gone', 'jobs'])).toEqual(['efile', 'jobs']);
  });
  it('moves one entry, never past the ends', () => {
    expect(moveEntry(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveEntry(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveEntry(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});
