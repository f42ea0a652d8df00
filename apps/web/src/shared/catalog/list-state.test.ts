import { describe, expect, it } from 'vitest';
import { parseListState, toListBody, toListParams } from './list-state';

describe('list state in the address', () => {
  it('round-trips filters, sort and page', () => {
    const params = new URLSearchParams(
      'keyword=PyTorch&labels=cuda&labels=nlp&acceleratorType=GPU&category=ai&sort=downloads&page=3&size=50',
    );
    const state = parseListState(params);
    expect(state).toEqual({
      keyword: 'PyTorch',
      labels: ['cuda', 'nlp'],
      acceleratorType: 'GPU',
      category: 'ai',
      sort: 'downloads',
      page: 3,
      size: 50,
    });
    expect(parseListState(toListParams(state))).toEqual(state);
  });

  it('falls back to defaults for missing or hostile values', () => {
    const state = parseListState(new URLSearchParams('sort=drop&page=-2&size=9999&labels=a&labels=a'));
    expect(state).toMatchObject({ sort: 'newest', page: 1, size: 20, labels: ['a'] });
    expect(toListParams(state).toString()).toBe('labels=a');
  });

  it('builds the list body without empty filters', () => {
    expect(toListBody(parseListState(new URLSearchParams()))).toEqual({
      keyword: undefined,
      labels: undefined,
      sort: 'newest',
      pageNum: 1,
      pageSize: 20,
    });
  });
});
