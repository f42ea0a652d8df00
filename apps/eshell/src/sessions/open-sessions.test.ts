import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createKv, type KvStore } from '@hpc/server-kit';
import { OPEN_SESSION_TTL_MS, openSessions } from './open-sessions';

const stores: [string, () => KvStore][] = [['memory', () => createKv(undefined, 'open:')]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  // A prefix of its own per run: Redis keeps what earlier runs left.
  stores.push(['redis', () => createKv(url, `test:open:${crypto.randomBytes(4).toString('hex')}:`)]);
}

describe.each(stores)("a user's open shells over the service's instances (%s)", (_name, make) => {
  const kv = make();
  afterAll(() => kv.close());
  let t = Date.now();
  const now = () => t;
  // Two instances: two registries on one store.
  const a = openSessions(kv, 'c1', now);
  const b = openSessions(kv, 'c1', now);

  it('counts every instance, refuses past the limit and takes nothing then', async () => {
    expect(await a.reserve('u1', 's1', 2)).toBe(true);
    expect(await b.reserve('u1', 's2', 2)).toBe(true);
    expect(await a.reserve('u1', 's3', 2)).toBe(false);
    expect(await b.count('u1')).toBe(2);
    // Another user, another cluster: counted apart.
    expect(await a.reserve('u2', 's4', 2)).toBe(true);
    expect(await openSessions(kv, 'c2', now).count('u1')).toBe(0);
    await b.release('u1', 's2');
    expect(await a.reserve('u1', 's3', 2)).toBe(true);
  });

  it('a burst of reservations on both never passes the limit', async () => {
    const got = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).reserve('burst', `b${i}`, 3)),
    );
    expect(got.filter(Boolean).length).toBeLessThanOrEqual(3);
    expect(await a.count('burst')).toBe(got.filter(Boolean).length);
  });

  it("forgets an instance's records that are not refreshed (it died with its shells)", async () => {
    expect(await a.reserve('u3', 'x1', 1)).toBe(true);
    expect(await b.reserve('u3', 'x2', 1)).toBe(false);
    t += OPEN_SESSION_TTL_MS / 2;
    await a.refresh([{ sub: 'u3', id: 'x1' }]);
    t += OPEN_SESSION_TTL_MS * 0.75;
    expect(await b.count('u3')).toBe(1); // refreshed: still there
    t += OPEN_SESSION_TTL_MS;
    expect(await b.count('u3')).toBe(0);
    expect(await b.reserve('u3', 'x2', 1)).toBe(true);
  });
});
