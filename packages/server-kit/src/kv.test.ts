import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from './kv';

const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push(['redis', () => new RedisKv(url, `test:${crypto.randomBytes(4).toString('hex')}:`)]);
}

describe.each(stores)('KvStore (%s)', (_name, make) => {
  const kv = make();
  afterAll(() => kv.close());

  it('sets, gets and expires values', async () => {
    await kv.set('a', '1', 50);
    expect(await kv.get('a')).toBe('1');
    await new Promise((r) => setTimeout(r, 80));
    expect(await kv.get('a')).toBeNull();
  });

  it('setIfAbsent is a lock: only the first caller wins until it expires or is deleted', async () => {
    expect(await kv.setIfAbsent('lock', 'x', 10_000)).toBe(true);
    expect(await kv.setIfAbsent('lock', 'y', 10_000)).toBe(false);
    await kv.del('lock');
    expect(await kv.setIfAbsent('lock', 'z', 10_000)).toBe(true);
    expect(await kv.get('lock')).toBe('z');
  });

  it('incr counts within a window that starts at the first increment', async () => {
    expect(await kv.incr('n', 60)).toBe(1);
    expect(await kv.incr('n', 60)).toBe(2);
    await new Promise((r) => setTimeout(r, 90));
    expect(await kv.incr('n', 60)).toBe(1);
  });

  it('getMany answers several keys in order, null for the missing', async () => {
    await kv.set('m1', 'a', 10_000);
    await kv.set('m3', 'c', 10_000);
    expect(await kv.getMany(['m1', 'm2', 'm3'])).toEqual(['a', null, 'c']);
    expect(await kv.getMany([])).toEqual([]);
  });

  it('a map takes fields, lists them, deletes one, and expires whole', async () => {
    await kv.mapSet('map', 'x', '1', 10_000);
    await kv.mapSet('map', 'y', '2', 10_000);
    expect(await kv.mapGetAll('map')).toEqual({ x: '1', y: '2' });
    await kv.mapDelete('map', 'x');
    expect(await kv.mapGetAll('map')).toEqual({ y: '2' });
    expect(await kv.mapGetAll('none')).toEqual({});
    await kv.mapSet('short', 'x', '1', 50);
    await new Promise((r) => setTimeout(r, 80));
    expect(await kv.mapGetAll('short')).toEqual({});
  });
});
