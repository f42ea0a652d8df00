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
});
