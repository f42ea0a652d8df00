import { describe, expect, it } from 'vitest';
import { isServiceDiscoveryError, type ServiceDiscoveryError } from './service-errors';
import { createServiceDiscovery, type KeyValueStorage } from './service-discovery';

/** A fetch whose health answers are set per instance URL; remembers every URL it was asked for. */
function fakeFetch(healthy: Record<string, boolean>) {
  const calls: string[] = [];
  const f = async (input: string | URL | Request) => {
    const url = input as string;
    calls.push(url);
    const base = url.replace(/\/check\.action$/, '');
    if (!(base in healthy)) throw new TypeError('fetch failed');
    return new Response(JSON.stringify({ code: '0', msg: '', data: { check_result: healthy[base] } }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch: f, calls, healthy };
}

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

const cluster = (efileUrl?: string) => ({
  clusterId: '11250',
  centerName: '合肥先进计算中心',
  params: (efileUrl === undefined ? {} : { efileUrl }) as Record<string, string>,
});
const list = (...entries: [string, boolean][]) =>
  JSON.stringify(entries.map(([url, on]) => ({ url, enable: on ? 'true' : 'false' })));
const three = cluster(list(['http://a', true], ['http://b', true], ['http://c', true]));

async function failure(p: Promise<unknown>): Promise<ServiceDiscoveryError> {
  try {
    await p;
  } catch (e) {
    if (isServiceDiscoveryError(e)) return e;
    throw e;
  }
  throw new Error('expected a ServiceDiscoveryError');
}

describe('createServiceDiscovery', () => {
  it('NoService when the cluster lists no service of that kind', async () => {
    const { fetch, calls } = fakeFetch({});
    const d = createServiceDiscovery({ fetch });
    for (const c of [cluster(), cluster(''), cluster('[]'), cluster('broken')]) {
      const e = await failure(d.resolve(c, 'efile', 1));
      expect(e.kind).toBe('NoService');
      expect(e.messageKey).toBe('errors.noService');
      expect(e.centerName).toBe('合肥先进计算中心');
    }
    expect(calls).toEqual([]);
  });

  it('NoEnableService when every listed service is switched off', async () => {
    const { fetch, calls } = fakeFetch({ 'http://a': true });
    const e = await failure(
      createServiceDiscovery({ fetch }).resolve(cluster(list(['http://a', false])), 'efile', 1),
    );
    expect(e.kind).toBe('NoEnableService');
    expect(e.messageKey).toBe('errors.noEnableService');
    expect(calls).toEqual([]);
  });

  it('AccessError when no enabled instance answers, after trying each once in round-robin order', async () => {
    const { fetch, calls } = fakeFetch({ 'http://b': false });
    const e = await failure(createServiceDiscovery({ fetch }).resolve(three, 'efile', 1));
    expect(e.kind).toBe('AccessError');
    expect(e.messageKey).toBe('errors.accessError');
    expect(e.tried).toEqual(['http://b', 'http://c', 'http://a']);
    expect(calls).toHaveLength(3);
  });

  it('starts at the user id hash mod n, so users spread over the instances', async () => {
    const { fetch } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch });
    expect(await d.resolve(three, 'efile', 0)).toBe('http://a');
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    expect(await d.resolve(three, 'efile', '5')).toBe('http://c');
  });

  it('skips disabled entries when counting the round robin', async () => {
    const { fetch, calls } = fakeFetch({ 'http://a': true, 'http://c': true });
    const c = cluster(list(['http://a', true], ['http://b', false], ['http://c', true]));
    expect(await createServiceDiscovery({ fetch }).resolve(c, 'efile', 1)).toBe('http://c');
    expect(calls).toEqual(['http://c/check.action']);
  });

  it('fails over to the next instance when the first one is down', async () => {
    const { fetch, calls } = fakeFetch({ 'http://b': false, 'http://c': true });
    expect(await createServiceDiscovery({ fetch }).resolve(three, 'efile', 1)).toBe('http://c');
    expect(calls).toEqual(['http://b/check.action', 'http://c/check.action']);
  });

  it('caches the working instance in memory and in the session storage', async () => {
    const storage = memoryStorage();
    const { fetch, calls } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch, storage });
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    expect(calls).toHaveLength(1);
    expect([...storage.map.values()]).toEqual(['http://b']);

    // A reload of the tab: a new module over the same session storage checks nothing.
    const again = fakeFetch({});
    expect(await createServiceDiscovery({ fetch: again.fetch, storage }).resolve(three, 'efile', 1)).toBe(
      'http://b',
    );
    expect(again.calls).toEqual([]);
  });

  it('keeps one cache entry per user, cluster and kind', async () => {
    const storage = memoryStorage();
    const { fetch } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch, storage });
    await d.resolve(three, 'efile', 1);
    await d.resolve(three, 'efile', 2);
    await d.resolve({ ...three, clusterId: '11251' }, 'efile', 1);
    expect(storage.map.size).toBe(3);
  });

  it('drops a cached instance that the centre no longer lists as enabled', async () => {
    const storage = memoryStorage();
    const { fetch, calls } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch, storage });
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    const bOff = cluster(list(['http://a', true], ['http://b', false], ['http://c', true]));
    expect(await d.resolve(bOff, 'efile', 1)).toBe('http://c');
    expect(calls).toHaveLength(2);
  });

  it('checks again after invalidate, and moves on when the cached instance went down', async () => {
    const { fetch, healthy } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch, storage: memoryStorage() });
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    healthy['http://b'] = false;
    d.invalidate('11250', 'efile', 1);
    expect(await d.resolve(three, 'efile', 1)).toBe('http://c');
  });

  it('shares one probe among concurrent callers', async () => {
    const { fetch, calls } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch });
    const urls = await Promise.all([1, 2, 3].map(() => d.resolve(three, 'efile', 1)));
    expect(urls).toEqual(['http://b', 'http://b', 'http://b']);
    expect(calls).toHaveLength(1);
  });

  it('clear forgets memory and session storage entries, but not foreign keys', async () => {
    const storage = memoryStorage();
    storage.setItem('hpc.language', 'en-US');
    const { fetch, calls } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch, storage });
    await d.resolve(three, 'efile', 1);
    d.clear();
    expect([...storage.map.keys()]).toEqual(['hpc.language']);
    await d.resolve(three, 'efile', 1);
    expect(calls).toHaveLength(2);
  });

  it('works when the storage throws (privacy modes)', async () => {
    const throwing: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const { fetch, calls } = fakeFetch({ 'http://a': true, 'http://b': true, 'http://c': true });
    const d = createServiceDiscovery({ fetch, storage: throwing });
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    expect(await d.resolve(three, 'efile', 1)).toBe('http://b');
    expect(calls).toHaveLength(1);
  });
});

describe('likely', () => {
  it('names the instance resolve checks first, then the one it found', async () => {
    const a = 'http://a.example/efile';
    const b = 'http://b.example/efile';
    const { fetch } = fakeFetch({ [a]: false, [b]: true });
    const d = createServiceDiscovery({ fetch, storage: memoryStorage() });
    const c = cluster(list([a, true], [b, true]));
    // User 2 starts at index 0 of two instances (2 mod 2), so `a` is checked first.
    expect(d.likely(c, 'efile', 2)).toBe(a);
    expect(await d.resolve(c, 'efile', 2)).toBe(b);
    expect(d.likely(c, 'efile', 2)).toBe(b);
  });

  it('is null without an enabled instance', () => {
    const d = createServiceDiscovery({ fetch: fakeFetch({}).fetch });
    expect(d.likely(cluster(list(['http://a.example/efile', false])), 'efile', 1)).toBeNull();
  });
});
