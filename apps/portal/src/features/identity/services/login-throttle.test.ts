import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import { Browser, usePortal } from '../identity.test-fixture';

/** The in-memory store always; Redis too when TEST_REDIS_URL is set (each suite under a key prefix of its own). */
const stores: { name: string; env: () => Record<string, string> }[] = [{ name: 'memory', env: () => ({}) }];
const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  stores.push({
    name: 'redis',
    env: () => ({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${crypto.randomBytes(6).toString('hex')}:` }),
  });
}

const cases = testDbTargets().flatMap((db) =>
  stores.map((kv) => ({ db, kv, name: `${db.name}/${kv.name}` })),
);

describe.each(cases)(
  'login throttling on $name',
  ({ db: target, kv }: { db: TestDbTarget; kv: (typeof stores)[number] }) => {
    const portal = usePortal(target, {
      ...kv.env(),
      LOGIN_MAX_FAILURES_PER_USER: '3',
      LOGIN_MAX_FAILURES_PER_IP: '5',
    });

    it('answers 429 once a user name has failed N times, from any address, even with the right password', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await new Browser(portal.app, `10.1.0.${i}`).login('wangwu', 'wrong-password');
        expect(res.json().code).toBe('LOGIN_FAILED');
      }
      const blocked = await new Browser(portal.app, '10.1.0.99').login('wangwu');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ code: 'LOGIN_THROTTLED' });
      // Other users are not affected.
      expect((await new Browser(portal.app, '10.1.0.99').login('lisi')).statusCode).toBe(200);
    });

    it('answers 429 once an address has failed N times, whatever the user names', async () => {
      const ip = '10.2.0.1';
      for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) {
        expect((await new Browser(portal.app, ip).login(name, 'wrong-password')).statusCode).toBe(401);
      }
      expect((await new Browser(portal.app, ip).login('demo')).statusCode).toBe(429);
      expect((await new Browser(portal.app, '10.2.0.2').login('demo')).statusCode).toBe(200);
    });

    it('counts before checking: 30 parallel wrong logins get at most the limit (3 here) of password checks', async () => {
      const burst = await Promise.all(
        Array.from({ length: 30 }, () =>
          new Browser(portal.app, '10.4.0.1').login('admin', 'wrong-password'),
        ),
      );
      const codes = burst.map((r) => r.json<{ code: string }>().code);
      // Every LOGIN_FAILED is one password check; the rest were refused before any check.
      expect(codes.filter((c) => c === 'LOGIN_FAILED').length).toBeLessThanOrEqual(3);
      expect(codes.filter((c) => c === 'LOGIN_THROTTLED').length).toBeGreaterThanOrEqual(27);
      expect(new Set(codes)).toEqual(new Set(['LOGIN_FAILED', 'LOGIN_THROTTLED']));
      // The right password sent during the lockout, alone or inside a second burst, does not get in.
      const again = await Promise.all([
        new Browser(portal.app, '10.4.0.2').login('admin'),
        ...Array.from({ length: 10 }, () => new Browser(portal.app, '10.4.0.3').login('admin', 'x-wrong-x')),
      ]);
      expect(again.map((r) => r.statusCode)).toEqual(Array(11).fill(429));
    });

    it('clears the user count on success', async () => {
      const b = new Browser(portal.app, '10.3.0.1');
      await b.login('lisi', 'wrong-password');
      await b.login('lisi', 'wrong-password');
      expect((await b.login('lisi')).statusCode).toBe(200);
      await b.login('lisi', 'wrong-password');
      await b.login('lisi', 'wrong-password');
      expect((await b.login('lisi')).statusCode).toBe(200);
    });
  },
);
