import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CatalogIndex, keywordTerms, type IndexItem, type IndexQuery } from './catalog-index';
import { CatalogIndexStore, type CatalogVersion, type IndexSource } from './catalog-index-store';

const item = (id: number, over: Partial<IndexItem> = {}): IndexItem => ({
  id,
  name: `模型${id}`,
  nameEn: `Model ${id}`,
  description: '',
  descriptionEn: '',
  category: 'llm',
  acceleratorType: null,
  createdAt: 1000 + id,
  downloadCount: 0,
  labels: [],
  ...over,
});

const q = (over: Partial<IndexQuery> = {}): IndexQuery => ({
  sort: 'newest',
  pageNum: 1,
  pageSize: 100,
  ...over,
});

/** The obvious (slow) answer the index must agree with. */
function naive(items: IndexItem[], query: IndexQuery): number[] {
  const terms = keywordTerms(query.keyword);
  const text = (it: IndexItem) =>
    [it.name, it.nameEn, it.extraText ?? '', it.description, it.descriptionEn]
      .join('\n')
      .normalize('NFKC')
      .toLowerCase();
  const matched = items.filter(
    (it) =>
      terms.every((t) => text(it).includes(t)) &&
      (query.labels ?? []).every((l) => it.labels.includes(l)) &&
      (!query.category || it.category === query.category) &&
      (!query.acceleratorType || it.acceleratorType === query.acceleratorType),
  );
  const cmp: Record<IndexQuery['sort'], (a: IndexItem, b: IndexItem) => number> = {
    newest: (a, b) => b.createdAt - a.createdAt || b.id - a.id,
    downloads: (a, b) => b.downloadCount - a.downloadCount || b.createdAt - a.createdAt || b.id - a.id,
    name: (a, b) => {
      const x = (a.nameEn || a.name).normalize('NFKC').toLowerCase();
      const y = (b.nameEn || b.name).normalize('NFKC').toLowerCase();
      return x < y ? -1 : x > y ? 1 : a.id - b.id;
    },
  };
  const start = (query.pageNum - 1) * query.pageSize;
  return matched
    .sort(cmp[query.sort])
    .slice(start, start + query.pageSize)
    .map((it) => it.id);
}

describe('CatalogIndex', () => {
  const items = [
    item(1, {
      nameEn: 'Qwen Chat',
      description: '通义千问对话',
      labels: ['pytorch', 'llm'],
      downloadCount: 5,
    }),
    item(2, {
      nameEn: 'ResNet',
      descriptionEn: 'Image CLASSIFIER',
      labels: ['pytorch'],
      category: 'cv',
      downloadCount: 9,
    }),
    item(3, { nameEn: 'bert', labels: ['tensorflow', 'llm'], downloadCount: 5 }),
    item(4, {
      nameEn: 'Alpha',
      acceleratorType: 'GPU',
      extraText: 'bio/alphafold:2.3.2',
      category: 'science',
    }),
  ];
  const index = new CatalogIndex(items);

  it('matches keywords in any field and language, every term, case- and width-insensitively', () => {
    expect(index.query(q({ keyword: '千问' })).ids).toEqual([1]);
    expect(index.query(q({ keyword: 'classifier' })).ids).toEqual([2]);
    expect(index.query(q({ keyword: 'ＲＥＳＮＥＴ' })).ids).toEqual([2]);
    expect(index.query(q({ keyword: 'alphafold:2.3' })).ids).toEqual([4]);
    expect(index.query(q({ keyword: 'qwen 对话' })).ids).toEqual([1]);
    expect(index.query(q({ keyword: 'qwen resnet' })).ids).toEqual([]);
    // A term never spans two items or two fields.
    expect(index.query(q({ keyword: 'chat\n' })).total).toBe(1);
  });

  it('intersects labels, category and accelerator', () => {
    expect(index.query(q({ labels: ['pytorch', 'llm'] })).ids).toEqual([1]);
    expect(index.query(q({ labels: ['llm'] })).ids).toEqual([3, 1]);
    expect(index.query(q({ labels: ['llm', 'nope'] })).total).toBe(0);
    expect(index.query(q({ category: 'cv' })).ids).toEqual([2]);
    expect(index.query(q({ acceleratorType: 'GPU' })).ids).toEqual([4]);
    expect([...index.usedLabels('GPU')]).toEqual([]);
    expect(index.categoryCounts()).toEqual(
      new Map([
        ['llm', 2],
        ['cv', 1],
        ['science', 1],
      ]),
    );
  });

  it('moves an item forward in the downloads order when its count grows', () => {
    const idx = new CatalogIndex(items);
    expect(idx.orderOf('downloads')).toEqual([2, 3, 1, 4]);
    idx.setDownloadCount(4, 6);
    expect(idx.orderOf('downloads')).toEqual([2, 4, 3, 1]);
    idx.setDownloadCount(1, 10);
    expect(idx.orderOf('downloads')).toEqual([1, 2, 4, 3]);
    idx.setDownloadCount(1, 0);
    expect(idx.orderOf('downloads')).toEqual([2, 4, 3, 1]);
    expect(idx.query(q({ sort: 'downloads', pageSize: 2 })).ids).toEqual([2, 4]);
  });

  it('agrees with a naive filter-sort-slice on random catalogues and queries', () => {
    const words = ['gpu', 'llm', '模型', 'Chat', 'ab'];
    const arbItem = fc.record({
      name: fc.constantFrom(...words),
      nameEn: fc.stringMatching(/^[A-Za-z ]{0,6}$/),
      description: fc.constantFrom('', '分子 动力学', 'Large model'),
      labels: fc.subarray(['a', 'b', 'c', 'd']),
      category: fc.constantFrom('x', 'y'),
      acceleratorType: fc.constantFrom(null, 'GPU', 'DCU'),
      createdAt: fc.integer({ min: 0, max: 20 }),
      downloadCount: fc.integer({ min: 0, max: 5 }),
    });
    const arbQuery = fc.record({
      keyword: fc.option(fc.constantFrom('gpu', 'L', '模', 'chat ab', 'model', '分子 large'), {
        nil: undefined,
      }),
      labels: fc.subarray(['a', 'b', 'c']),
      category: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }),
      acceleratorType: fc.option(fc.constantFrom('GPU', 'DCU'), { nil: undefined }),
      sort: fc.constantFrom('newest' as const, 'downloads' as const, 'name' as const),
      pageNum: fc.integer({ min: 1, max: 3 }),
      pageSize: fc.integer({ min: 1, max: 7 }),
    });
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 60 }), arbQuery, (raw, query) => {
        const list = raw.map((r, i) => item(i + 1, { ...r, descriptionEn: r.description }));
        const result = new CatalogIndex(list).query(query);
        expect(result.ids).toEqual(naive(list, query));
      }),
      { numRuns: 300 },
    );
  });
});

/** A repository stand-in whose version and items the test changes, counting what the store reads. */
function fakeSource(initial: IndexItem[]) {
  const state = {
    items: initial,
    version: { version: 1, countsVersion: 0 } satisfies CatalogVersion,
    reads: 0,
    loads: 0,
  };
  const source: IndexSource = {
    readVersion: async () => {
      state.reads++;
      return { ...state.version };
    },
    loadIndexItems: async () => {
      state.loads++;
      return state.items.map((i) => ({ ...i }));
    },
    loadDownloadCounts: async () => state.items.map((i) => ({ id: i.id, downloadCount: i.downloadCount })),
  };
  return { state, source };
}

describe('CatalogIndexStore', () => {
  it('re-reads the version at most once per interval and rebuilds when it changed', async () => {
    let now = 10_000;
    const { state, source } = fakeSource([item(1)]);
    const store = new CatalogIndexStore(source, 'model', { now: () => now });
    const first = await store.read('k', (i) => i.query(q()).ids);
    expect(first).toEqual([1]);
    state.items = [item(1), item(2)];
    state.version = { version: 2, countsVersion: 0 };
    // Within the interval: the cached answer, no version read.
    now += 500;
    expect(await store.read('k', (i) => i.query(q()).ids)).toEqual([1]);
    expect(state.reads).toBe(1);
    now += 600;
    expect(await store.read('k', (i) => i.query(q()).ids)).toEqual([2, 1]);
    expect([state.reads, state.loads]).toEqual([2, 2]);
    // Unchanged version: no reload, cache kept.
    now += 1500;
    let computed = 0;
    await store.read('k', (i) => (computed++, i.query(q()).ids));
    expect([state.reads, state.loads, computed]).toEqual([3, 2, 0]);
  });

  it('refreshes only the counts when only the counts version changed', async () => {
    let now = 0;
    const { state, source } = fakeSource([item(1), item(2, { downloadCount: 3 })]);
    const store = new CatalogIndexStore(source, 'model', { now: () => now });
    expect(await store.read('d', (i) => i.query(q({ sort: 'downloads' })).ids)).toEqual([2, 1]);
    state.items = [item(1, { downloadCount: 7 }), item(2, { downloadCount: 3 })];
    state.version = { version: 1, countsVersion: 1 };
    now += 1000;
    expect(await store.read('d', (i) => i.query(q({ sort: 'downloads' })).ids)).toEqual([1, 2]);
    expect(state.loads).toBe(1);
  });

  it('applies a local count in place, and re-checks when another writer came in between', async () => {
    const now = 0;
    const { state, source } = fakeSource([item(1), item(2, { downloadCount: 3 })]);
    const store = new CatalogIndexStore(source, 'model', { now: () => now });
    await store.get();
    store.applyDownloadCount(1, 4, 1);
    expect(await store.read('d', (i) => i.query(q({ sort: 'downloads' })).ids)).toEqual([1, 2]);
    expect(state.reads).toBe(1);
    // Counts version 3 is not the next one (2): the store must re-read before the next answer.
    state.version = { version: 1, countsVersion: 3 };
    state.items = [item(1, { downloadCount: 5 }), item(2, { downloadCount: 9 })];
    store.applyDownloadCount(1, 5, 3);
    expect(await store.read('d', (i) => i.query(q({ sort: 'downloads' })).ids)).toEqual([2, 1]);
    expect(state.reads).toBe(2);
  });

  it('reloads after invalidate() even within the interval', async () => {
    const { state, source } = fakeSource([item(1)]);
    const store = new CatalogIndexStore(source, 'model', { now: () => 0 });
    await store.get();
    state.items = [item(1), item(5)];
    state.version = { version: 9, countsVersion: 0 };
    store.invalidate();
    expect((await store.get()).size).toBe(2);
  });

  it('shares one load between concurrent first readers', async () => {
    const { state, source } = fakeSource([item(1)]);
    const store = new CatalogIndexStore(source, 'model');
    await Promise.all([store.get(), store.get(), store.get()]);
    expect(state.loads).toBe(1);
  });
});
