import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from './kv';
import { createAttemptThrottle, type AttemptRule } from './throttle';

const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push(['redis', () => new RedisKv(url, `test-throttle:${crypto.randomBytes(4).toString('hex')}:`)]);
}

describe.each(stores)('failed-attempt throttle (%s)', (_name, make) => {
  const kv = make();
  const throttle = createAttemptThrottle(kv);
  afterAll(() => kv.close());
  const hour = 3600_000;

  it('lets at most `max` of a parallel burst through, and refuses the rest', async () => {
    const rules: AttemptRule[] = [{ key: 'burst:user', max: 5, windowMs: hour }];
    const got = await Promise.all(Array.from({ length: 30 }, () => throttle.attempt(rules)));
    expect(got.filter((a) => a.allowed)).toHaveLength(5);
    expect((await throttle.attempt(rules)).allowed).toBe(false);
  });

  it('takes a refused attempt back from the rules that did not refuse it, and applies onSuccess', async () => {
    const user: AttemptRule = { key: 'mix:user', max: 2, windowMs: hour, onSuccess: 'clear' };
    const ip: AttemptRule = { key: 'mix:ip', max: 3, windowMs: hour };
    for (let i = 0; i < 2; i++) expect((await throttle.attempt([user, ip])).allowed).toBe(true);
    // Refused by the user rule: the address's count is not used up by it.
    for (let i = 0; i < 5; i++) expect((await throttle.attempt([user, ip])).allowed).toBe(false);
    expect(await kv.get('mix:ip')).toBe('2');
    const other: AttemptRule = { key: 'mix:user2', max: 2, windowMs: hour, onSuccess: 'clear' };
    const ok = await throttle.attempt([other, ip]);
    expect(ok.allowed).toBe(true);
    await ok.succeeded(); // clears user2, refunds the address
    expect([await kv.get('mix:user2'), await kv.get('mix:ip')]).toEqual([null, '2']);
  });

  it('past the limit, a delayed rule lets one attempt through per delay instead of locking out', async () => {
    const share: AttemptRule = {
      key: 'delay:share',
      max: 10,
      windowMs: hour,
      onSuccess: 'keep',
      delay: { baseMs: 2_000, maxMs: 10_000 },
    };
    const started = Date.now();
    const got = await Promise.all(Array.from({ length: 200 }, () => throttle.attempt([share])));
    const elapsed = Date.now() - started;
    // The first attempt arms the gate for `baseMs`; past the limit, only an attempt that finds it expired gets
    // through. So a burst gets its 10 checks plus at most one per full delay it lasted: 10 on any machine that
    // sends 200 attempts within 2 s, and still correct on one that is slower (the bound grows with the time taken).
    const allowed = got.filter((a) => a.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(10 + Math.floor(elapsed / 2_000));
    expect(got.find((a) => !a.allowed)!.retryAfterMs).toBeGreaterThan(0);
    // Not a 15-minute lockout: once the delay has passed, one attempt (and only one of a burst) gets through.
    let through = 0;
    for (let tries = 0; through === 0 && tries < 600; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      const burst = await Promise.all(Array.from({ length: 5 }, () => throttle.attempt([share])));
      through = burst.filter((a) => a.allowed).length;
    }
    expect(through).toBe(1);
  });
});
