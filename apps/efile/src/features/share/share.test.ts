/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- inject().json() is untyped in route tests */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv } from '@hpc/server-kit';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import { testDbTargets } from '@hpc/server-kit/testing';

describe.each(testDbTargets())('shares ($name)', (db) => {
  let h: Harness;
  let token: string;
  let now = Date.now();
  const get = (url: string) => h.app.inject({ method: 'GET', url, headers: { token } });
  const verify = (shareId: string, password: string, ip = '10.0.0.1') =>
    h.app.inject({
      method: 'POST',
      url: '/share/public/verify.action',
      headers: FORM,
      payload: form({ shareId, password }),
      remoteAddress: ip,
    });
  const open = async (p: string, extra = '') =>
    (await get(`/share/open.action?path=${encodeURIComponent(p)}${extra}`)).json();

  beforeAll(async () => {
    h = await makeHarness({
      db,
      now: () => now,
      kv: new MemoryKv(),
      // Ten minutes between code checks on a share past its limit: the throttle test below cannot race the clock.
      env: { EFILE_PORTAL_PUBLIC_URL: 'https://portal.example.org/', EFILE_SHARE_CODE_MIN_DELAY_S: '600' },
    });
    token = await h.token();
    fs.mkdirSync(h.home + '/共享/sub', { recursive: true });
    fs.writeFileSync(h.home + '/共享/sub/r.txt', 'result');
    fs.writeFileSync(h.home + '/secret.txt', 'not shared');
  });
  afterAll(() => h.close());

  it('validates the validity period and the code', async () => {
    expect((await open('/public/home/demo/共享')).code).toBe('1003');
    expect((await open('/public/home/demo/共享', '&validDays=abc')).msg).toBe(
      'Please enter the correct share validity period',
    );
    expect((await open('/public/home/demo/共享', '&validDays=31')).msg).toBe(
      'The maximum period of share validity is 30 days',
    );
    expect((await open('/public/home/demo/共享', '&validDays=0')).code).toBe('1004');
    expect((await open('/public/home/other', '&validDays=3')).code).toBe('1030');
  });

  it('opens a link, lets the recipient list and download inside it only, closes at once', async () => {
    const s = await open('/public/home/demo/共享', '&validDays=7&password=abcd');
    expect(s.code).toBe('0');
    expect(s.data.shareId).toMatch(/^[\w-]{22}$/);
    expect(s.data.link).toBe(`https://portal.example.org/share/c1/${s.data.shareId}`);
    expect(s.data.endUseTime - s.data.shareTime).toBe(7 * 86_400_000);
    const gen = await open('/public/home/demo/secret.txt', '&validDays=1');
    expect(gen.data.password).toMatch(/^[a-z0-9]{6}$/);
    expect((await verify(s.data.shareId, 'wrong')).json().code).toBe('1026');
    const v = (await verify(s.data.shareId, 'abcd')).json();
    expect(v).toMatchObject({ code: '0', data: { name: '共享', isDir: true } });
    const st = v.data.shareToken;
    const list = await h.app.inject({ method: 'GET', url: `/share/public/list.action?shareToken=${st}` });
    expect(list.json().data.list.map((e: { path: string }) => e.path)).toEqual(['/sub']);
    const sub = await h.app.inject({
      method: 'GET',
      url: `/share/public/list.action?shareToken=${st}&path=/sub`,
    });
    expect(sub.json().data.list[0]).toMatchObject({ name: 'r.txt', path: '/sub/r.txt' });
    const up = await h.app.inject({
      method: 'GET',
      url: `/share/public/list.action?shareToken=${st}&path=../`,
    });
    expect(up.json().code).toBe('1033');
    const file = await h.app.inject({
      method: 'GET',
      url: `/share/public/download.action?shareToken=${st}&path=/sub/r.txt`,
    });
    expect(file.body).toBe('result');
    const zip = await h.app.inject({ method: 'GET', url: `/share/public/download.action?shareToken=${st}` });
    expect(zip.headers['content-type']).toBe('application/zip');
    const mine = (await get('/share/list.action')).json().data;
    expect(mine.total).toBe(2);
    expect((await get('/share/isIncludeShareFile.action?paths=/public/home/demo')).json().data).toEqual({
      include: true,
      shared: false,
      count: 2,
    });
    expect((await get(`/share/close.action?shareId=${s.data.shareId}`)).json().data.closed).toBe(1);
    expect((await verify(s.data.shareId, 'abcd')).json().code).toBe('LINK_CLOSED');
    const after = await h.app.inject({ method: 'GET', url: `/share/public/list.action?shareToken=${st}` });
    expect(after.json().code).toBe('LINK_CLOSED');
  });

  it('expires, is invalid after a rename (spec §5), closes on delete and refuses a different item under the same name', async () => {
    const s = (await open('/public/home/demo/共享', '&validDays=1&password=code1')).data;
    expect((await verify(s.shareId, 'code1')).json().code).toBe('0');
    const rn = await h.app.inject({
      method: 'POST',
      url: '/rename.action',
      headers: { token, ...FORM },
      payload: form({ path: '/public/home/demo/共享', newName: '共享2' }),
    });
    expect(rn.json().code).toBe('0');
    const mine = (await get('/share/list.action'))
      .json()
      .data.list.find((x: { shareId: string }) => x.shareId === s.shareId);
    expect(mine).toMatchObject({ path: '/public/home/demo/共享', status: 'closed' });
    expect((await verify(s.shareId, 'code1')).json().code).toBe('LINK_CLOSED');
    // Replaced behind our back (shell): a new folder under the shared name is not served.
    const s2 = (await open('/public/home/demo/共享2', '&validDays=1&password=code3')).data;
    fs.renameSync(h.home + '/共享2', h.home + '/moved-away');
    fs.mkdirSync(h.home + '/共享2');
    expect((await verify(s2.shareId, 'code3')).json().code).toBe('LINK_CLOSED');
    const f = (await open('/public/home/demo/secret.txt', '&validDays=1&password=code2')).data;
    now += 2 * 86_400_000;
    expect((await verify(f.shareId, 'code2')).json().code).toBe('1509');
    now -= 2 * 86_400_000;
    await h.app.inject({
      method: 'POST',
      url: '/remove.action',
      headers: { token, ...FORM },
      payload: form({ paths: ['/public/home/demo/secret.txt'] }),
    });
    expect((await verify(f.shareId, 'code2')).json().code).toBe('LINK_CLOSED');
  });

  it('throttles after 10 wrong codes per address, and slows a share down after 10', async () => {
    fs.writeFileSync(h.home + '/t.txt', 't');
    const s = (await open('/public/home/demo/t.txt', '&validDays=1&password=right1')).data;
    for (let i = 0; i < 10; i++)
      expect((await verify(s.shareId, 'nope', `10.1.0.${i}`)).json().code).toBe('1026');
    const blocked = await verify(s.shareId, 'right1', '10.2.0.1');
    expect(blocked.statusCode).toBe(429);
    const s2 = (await open('/public/home/demo/t.txt', '&validDays=1&password=right2')).data;
    for (let i = 0; i < 10; i++) await verify(`unknown${i}`, 'x', '10.9.9.9').then((r) => r.json());
    for (let i = 0; i < 10; i++) await verify(s2.shareId, 'bad', '10.9.9.8');
    // Past 10 wrong codes a share is not locked for everyone, only slowed down: at most one check per delay.
    const burst = await Promise.all([1, 2, 3, 4, 5].map((i) => verify(s2.shareId, 'right2', `10.3.3.${i}`)));
    expect(burst.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(4);
  });
});
