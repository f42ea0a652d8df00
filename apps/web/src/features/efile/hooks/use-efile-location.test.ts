import { describe, expect, it } from 'vitest';
import { locationSearch, parseLocation } from './use-efile-location';

describe('efile location in the address', () => {
  it('reads defaults and refuses odd values', () => {
    expect(parseLocation(new URLSearchParams('size=33&page=-1&sort=evil'))).toMatchObject({
      pageNum: 1,
      pageSize: 20,
      sort: 'name',
      order: 'asc',
    });
  });
  it('round-trips', () => {
    const loc = {
      cluster: '11250',
      path: '/a b',
      pageNum: 3,
      pageSize: 500,
      sort: 'mtime',
      order: 'desc',
      keyword: 'x',
    } as const;
    expect(parseLocation(locationSearch(loc))).toEqual(loc);
    expect(locationSearch({ cluster: 'c', path: '/p', pageNum: 1, pageSize: 20 }).toString()).toBe(
      'cluster=c&path=%2Fp',
    );
  });
});
