import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from '@hpc/server-kit';
import { FORM, form, makeHarness, type Harness } from '../../testing/efile-testing';

/** The in-memory store always; Redis too when TEST_REDIS_URL is set (under a key prefix of this run's own). */
const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push([
    'redis',
    () => new RedisKv(url, `test-share-throttle:${crypto.randomBytes(4).toString('hex')}:`),
  ]);
}

describe.each(stores)('extraction code throttle under parallel requests (%s)', (_name, makeKv) => {
  let h: Harness;
  let kv: KvStore;
  let token: string;
  const verify = (shareId: string, password: string, ip: string) =>
    h.app.inject({
      method: 'POST',
      url: '/share/public/verify.action',
      headers: FORM,
      payload: form({ shareId, password }),
      remoteAddress: ip,
    });
  const open = async (name: string, password: string) => {
    fs.writeFileSync(`${h.home}/${name}`, name);
    const r = await h.app.inject({
      method: 'GET',
      url: `/share/open.action?path=/public/home/demo/${name}&validDays=1&password=${password}`,
      headers: { token },
    });
    return r.json().data.shareId as string;
  };
  const codes = (rs: { json: () => { code: string } }[]) => rs.map((r) => r.json().code);

  beforeAll(async () => {
    kv = makeKv();
    h = await makeHarness({ kv, env: { EFILE_SHARE_CODE_MAX_DELAY_S: '2' } });
    token = await h.token();
  });
  afterAll(async () => {
    await h.close();
    await kv.close();
  });

  it('200 parallel tries from one address get at most 10 checks; the right code in the burst does not slip past', async () => {
    const id = await open('one.txt', 'right1');
    const burst = await Promise.all([
      ...Array.from({ length: 199 }, (_, i) => verify(id, `wrong${i}`, '10.5.0.1')),
      verify(id, 'right1', '10.5.0.1'),
    ]);
    const c = codes(burst);
    const checks = c.filter((x) => x === '1026' || x === '0').length;
    expect(checks).toBeLessThanOrEqual(10);
    expect(c.filter((x) => x === '429').length).toBe(200 - checks);
    // The address is locked out, whatever the share.
    const other = await open('other.txt', 'right2');
    expect((await verify(other, 'right2', '10.5.0.1')).statusCode).toBe(429);
  });

  it('200 parallel tries from 200 addresses get at most 10 checks, and the recipient still gets in after the delay', async () => {
    const id = await open('many.txt', 'right3');
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, i) => verify(id, `wrong${i}`, `10.6.${i >> 8}.${i & 255}`)),
    );
    const c = codes(burst);
    expect(c.filter((x) => x === '1026').length).toBeLessThanOrEqual(10);
    expect(c.filter((x) => x === '429').length).toBeGreaterThanOrEqual(190);
    // The share is slowed down, not closed for 15 minutes: the recipient waits the delay it is told and gets in.
    const first = await verify(id, 'right3', '10.7.0.1');
    let res = first;
    if (first.statusCode === 429) {
      const wait = first.json().data.retryAfterSeconds as number;
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(2);
      await new Promise((r) => setTimeout(r, wait * 1000));
      res = await verify(id, 'right3', '10.7.0.1');
    }
    expect(res.json()).toMatchObject({ code: '0', data: { name: 'many.txt' } });
  });
});
