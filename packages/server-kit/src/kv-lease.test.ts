import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from './kv';
import { acquireLock, claimInterval } from './kv-lease';

const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push(['redis', () => new RedisKv(url, `test:lease:${crypto.randomBytes(4).toString('hex')}:`)]);
}
const waitFor = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
};

describe.each(stores)('locks and leases (%s)', (_name, make) => {
  const kv = make();
  afterAll(() => kv.close());

  it('a lock has one owner; only its token releases it', async () => {
    const a = await acquireLock(kv, 'l1', 10_000);
    expect(a).not.toBeNull();
    expect(await acquireLock(kv, 'l1', 10_000)).toBeNull();
    // Someone holding a stale token cannot free it.
    expect(await kv.delIfEquals('l1', 'not-the-token')).toBe(false);
    expect(await kv.get('l1')).toBe(a!.token);
    await a!.release();
    expect(await kv.get('l1')).toBeNull();
    const b = await acquireLock(kv, 'l1', 10_000);
    expect(b).not.toBeNull();
    await b!.release();
  });

  it('a held lock is renewed past its time-to-live; an abandoned one expires', async () => {
    // Renewal runs every third of the TTL, so a loaded machine has two thirds of it as margin.
    const held = (await acquireLock(kv, 'l2', 900))!;
    await new Promise((r) => setTimeout(r, 2_700));
    expect(await kv.get('l2')).toBe(held.token);
    expect(held.lost).toBe(false);
    await held.release();
    // Abandoned (no renewals): a plain setIfAbsent with the same TTL disappears by itself.
    expect(await kv.setIfAbsent('l3', 'dead-owner', 100)).toBe(true);
    await waitFor(async () => (await kv.get('l3')) === null);
    expect(await acquireLock(kv, 'l3', 100)).not.toBeNull();
  });

  it('renewIfEquals does not extend someone else’s lock', async () => {
    await kv.set('l4', 'other', 10_000);
    expect(await kv.renewIfEquals('l4', 'mine', 10_000)).toBe(false);
    expect(await kv.renewIfEquals('l4', 'other', 10_000)).toBe(true);
  });

  it('one claim per interval, whoever asks first', async () => {
    const t = 1_000_000 * 60_000 + 5;
    expect(await claimInterval(kv, 'job', 60_000, t)).toBe(1_000_000);
    expect(await claimInterval(kv, 'job', 60_000, t + 30_000)).toBeNull();
    expect(await claimInterval(kv, 'job', 60_000, t + 60_000)).toBe(1_000_001);
    expect(await claimInterval(kv, 'other-job', 60_000, t)).toBe(1_000_000);
  });
});

describe('Redis unreachable', () => {
  it('fails with 1001, not an anonymous error', async () => {
    const kv = new RedisKv('redis://127.0.0.1:1', 'x:');
    await expect(kv.get('a')).rejects.toMatchObject({ code: '1001', status: 503 });
    await kv.close();
  });
});
