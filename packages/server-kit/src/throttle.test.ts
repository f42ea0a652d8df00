import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from './kv';
import { createAttemptThrottle, type AttemptRule } from './throttle';

/** A store, and how long a key of it has left to live (read from the store itself, not by waiting). */
interface Store {
  kv: KvStore;
  ttlOf: (key: string) => Promise<number>;
  close: () => Promise<void>;
}
const stores: [string, () => Store][] = [
  [
    'memory',
    () => {
      const kv = new MemoryKv();
      const map = (kv as unknown as { map: Map<string, { expires: number }> }).map;
      return { kv, ttlOf: async (key) => (map.get(key)?.expires ?? 0) - Date.now(), close: () => kv.close() };
    },
  ],
];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push([
    'redis',
    () => {
      const prefix = `test-throttle:${crypto.randomBytes(4).toString('hex')}:`;
      const kv = new RedisKv(url, prefix);
      const probe = new Redis(url);
      return {
        kv,
        close: async () => {
          probe.disconnect();
          await kv.close();
        },
        ttlOf: (key) => probe.pttl(prefix + key),
      };
    },
  ]);
}

describe.each(stores)('failed-attempt throttle (%s)', (_name, make) => {
  const { kv, ttlOf, close } = make();
  const throttle = createAttemptThrottle(kv);
  afterAll(close);
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

  it('arms the delay from the count of the attempt that armed it, however a burst interleaves with it', async () => {
    const share: AttemptRule = {
      key: 'race:share',
      max: 3,
      windowMs: 30 * 24 * hour,
      onSuccess: 'keep',
      delay: { baseMs: 1_000, maxMs: 2 ** 40 },
    };
    // 10 attempts: 3 checked, the rest refused by the gate the first one armed.
    for (let i = 0; i < 10; i++) await throttle.attempt([share]);
    // Attempt A is held just before its atomic step while a burst of 10 more counts (the gate is closed: all are
    // refused), then the gate's delay runs out. A is the 21st attempt: the gate it arms must wait the delay due
    // after 21 attempts (2^17 s). Read from a count taken before the step, it was the delay after 11 (2^7 s).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const atStep = new Promise<void>((r) => (arrived = r));
    const racing = Object.assign(Object.create(kv) as KvStore, {
      incrAndGate: async (...args: Parameters<KvStore['incrAndGate']>) => {
        arrived();
        await held;
        return kv.incrAndGate(...args);
      },
    });
    const a = createAttemptThrottle(racing).attempt([share]);
    await atStep;
    const burst = await Promise.all(Array.from({ length: 10 }, () => throttle.attempt([share])));
    expect(burst.filter((b) => b.allowed)).toHaveLength(0);
    await kv.del('race:share:gate');
    release();
    expect((await a).allowed).toBe(true);
    expect(await kv.get('race:share')).toBe('21');
    expect(await ttlOf('race:share:gate')).toBeGreaterThan(2 ** 7 * 1_000);
    // And the next attempt is told to wait the delay due after 22.
    const next = await throttle.attempt([share]);
    expect(next).toMatchObject({ allowed: false, retryAfterMs: 2 ** 18 * 1_000 });
  });
});
