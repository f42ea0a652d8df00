import crypto from 'node:crypto';
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from '@hpc/server-kit';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

/** The in-memory store always; Redis too when TEST_REDIS_URL is set (under a key prefix of this run's own). */
const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push([
    'redis',
    () => new RedisKv(url, `test-share-throttle:${crypto.randomBytes(4).toString('hex')}:`),
  ]);
}

/** An efile for one describe block with the given store and share delays (s), and the calls the tests make. */
function useShare(makeKv: () => KvStore, delays: [string, string]) {
  const t = {} as {
    h: Harness;
    verify: (shareId: string, password: string, ip: string) => Promise<LightMyRequestResponse>;
    open: (name: string, password: string) => Promise<string>;
  };
  let kv: KvStore;
  beforeAll(async () => {
    kv = makeKv();
    t.h = await makeHarness({
      kv,
      env: { EFILE_SHARE_CODE_MIN_DELAY_S: delays[0], EFILE_SHARE_CODE_MAX_DELAY_S: delays[1] },
    });
    const token = await t.h.token();
    t.verify = (shareId, password, ip) =>
      t.h.app.inject({
        method: 'POST',
        url: '/share/public/verify.action',
        headers: FORM,
        payload: form({ shareId, password }),
        remoteAddress: ip,
      });
    t.open = async (name, password) => {
      fs.writeFileSync(`${t.h.home}/${name}`, name);
      const r = await t.h.app.inject({
        method: 'GET',
        url: `/share/open.action?path=/public/home/demo/${name}&validDays=1&password=${password}`,
        headers: { token },
      });
      return r.json().data.shareId as string;
    };
  });
  afterAll(async () => {
    await t.h.close();
    await kv.close();
  });
  return t;
}
const codes = (rs: { json: () => { code: string } }[]) => rs.map((r) => r.json().code);

// Ten minutes between checks past the limit: the gate cannot reopen while a burst is still being answered, however
// loaded the machine is.
describe.each(stores)('extraction code throttle under parallel bursts (%s)', (_name, makeKv) => {
  const t = useShare(makeKv, ['600', '600']);

  it('200 parallel tries from one address get at most 10 checks; the right code in the burst does not slip past', async () => {
    const id = await t.open('one.txt', 'right1');
    const burst = await Promise.all([
      ...Array.from({ length: 199 }, (_, i) => t.verify(id, `wrong${i}`, '10.5.0.1')),
      t.verify(id, 'right1', '10.5.0.1'),
    ]);
    const c = codes(burst);
    const checks = c.filter((x) => x === '1026' || x === '0').length;
    expect(checks).toBeLessThanOrEqual(10);
    expect(c.filter((x) => x === '429').length).toBe(200 - checks);
    // The address is locked out, whatever the share.
    const other = await t.open('other.txt', 'right2');
    expect((await t.verify(other, 'right2', '10.5.0.1')).statusCode).toBe(429);
  });

  it('200 parallel tries from 200 addresses get at most 10 checks', async () => {
    const id = await t.open('many.txt', 'right3');
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, i) => t.verify(id, `wrong${i}`, `10.6.${i >> 8}.${i & 255}`)),
    );
    const c = codes(burst);
    expect(c.filter((x) => x === '1026').length).toBeLessThanOrEqual(10);
    expect(c.filter((x) => x === '429').length).toBeGreaterThanOrEqual(190);
  });
});

// 1 to 2 s between checks past the limit: the recipient waits that out.
describe.each(stores)('extraction code throttle and the recipient (%s)', (_name, makeKv) => {
  const t = useShare(makeKv, ['1', '2']);

  it("a stranger's wrong codes slow the share down but do not lock the recipient out", async () => {
    const id = await t.open('slow.txt', 'right4');
    for (let i = 0; i < 10; i++)
      expect(codes([await t.verify(id, `wrong${i}`, `10.9.0.${i}`)])).toEqual(['1026']);
    const first = await t.verify(id, 'right4', '10.7.0.1');
    let res = first;
    if (first.statusCode === 429) {
      const wait = first.json().data.retryAfterSeconds as number;
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(2);
      await new Promise((r) => setTimeout(r, wait * 1000));
      res = await t.verify(id, 'right4', '10.7.0.1');
    }
    expect(res.json()).toMatchObject({ code: '0', data: { name: 'slow.txt' } });
  });
});
