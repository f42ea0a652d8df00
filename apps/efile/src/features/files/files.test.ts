/* eslint-disable @typescript-eslint/no-unsafe-call -- inject().json() is untyped in route tests */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import { testDbTargets } from '@hpc/server-kit/testing';

describe.each(testDbTargets())('files calls ($name)', (db) => {
  let h: Harness;
  let token: string;
  const get = (url: string, t = token) => h.app.inject({ method: 'GET', url, headers: { token: t } });
  const post = (url: string, body: Record<string, string | number | boolean | string[]>, t = token) =>
    h.app.inject({ method: 'POST', url, headers: { token: t, ...FORM }, payload: form(body) });

  beforeAll(async () => {
    h = await makeHarness({ db });
    token = await h.token();
    fs.mkdirSync(h.home + '/big');
    for (let i = 0; i < 45; i++)
      fs.writeFileSync(`${h.home}/big/f${String(i).padStart(2, '0')}.txt`, 'x'.repeat(i));
    fs.writeFileSync(h.home + '/big/.hidden', '');
    fs.writeFileSync(h.home + '/big/.f01.txt.abc.efile-part', 'partial');
    fs.mkdirSync(h.home + '/big/zdir');
  });
  afterAll(() => h.close());

  it('health needs no token; everything else refuses missing, tampered, expired and foreign tokens with 1406', async () => {
    const c = await h.app.inject({ method: 'GET', url: '/check.action' });
    expect(c.json()).toMatchObject({ check_result: 'ok' });
    expect(
      (await h.app.inject({ method: 'GET', url: '/list.action?path=/public/home/demo' })).json().code,
    ).toBe('1406');
    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const t of [tampered, await h.token({ aud: 'other-cluster' }), await h.token({}, -100)]) {
      const r = await get('/list.action?path=/public/home/demo', t);
      expect(r.statusCode).toBe(401);
      expect(r.json().code).toBe('1406');
    }
    const disabled = await get('/list.action?path=/public/home/demo', await h.token({ st: 'Disable' }));
    expect(disabled.json().code).toBe('1007');
  });

  it('publishes its OpenAPI description at /docs/json without a token (schemas, no data)', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/docs/json' });
    expect(r.statusCode).toBe(200);
    const paths = Object.keys(r.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/list.action', '/chunkUpload.action', '/share/open.action']),
    );
  });

  it('lists with paging, sorting, search, hidden partial files and ls-style columns', async () => {
    const r = await get('/list.action?path=/public/home/demo/big&pageNum=1&pageSize=20');
    const body = r.json();
    expect(body.code).toBe('0');
    expect(body.data.total).toBe(46);
    expect(body.data.list[0]).toMatchObject({ name: 'zdir', type: 'dir', isDirectory: true });
    expect(body.data.list[0].permission).toMatch(/^d[rwx-]{9}$/);
    expect(body.data.list[1]).toMatchObject({
      name: 'f00.txt',
      size: 0,
      ext: 'txt',
      owner: expect.any(String),
    });
    const p3 = (await get('/list.action?path=/public/home/demo/big&pageNum=3&pageSize=20')).json();
    expect(p3.data.list.map((e: { name: string }) => e.name)).toEqual([
      'f39.txt',
      'f40.txt',
      'f41.txt',
      'f42.txt',
      'f43.txt',
      'f44.txt',
    ]);
    const bySize = (
      await get('/list.action?path=/public/home/demo/big&sort=size&order=desc&pageSize=3')
    ).json();
    expect(bySize.data.list.map((e: { name: string }) => e.name)).toEqual(['zdir', 'f44.txt', 'f43.txt']);
    const search = (await get('/list.action?path=/public/home/demo/big&keyword=F1')).json();
    expect(search.data.total).toBe(10);
    const hidden = (await get('/list.action?path=/public/home/demo/big&showHidden=true')).json();
    expect(hidden.data.total).toBe(47);
    expect((await get('/list.action?path=/public/home/other')).json().code).toBe('1030');
    expect((await get('/list.action?path=/public/home/demo/nope')).json().code).toBe('1024');
    expect((await get('/list.action?path=/public/home/demo/big&sort=bogus')).json().code).toBe('1004');
  });

  it('creates, renames, checks and removes with the spec codes (form and JSON bodies)', async () => {
    /** The code of renaming the new folder's a.txt to `newName`. */
    const renameA = async (newName: string) => {
      const res = await post('/rename.action', { path: '/public/home/demo/新建文件夹/a.txt', newName });
      return res.json<{ code: string }>().code;
    };
    expect((await post('/mkdir.action', { path: '/public/home/demo/新建文件夹' })).json().code).toBe('0');
    expect((await post('/mkdir.action', { path: '/public/home/demo/新建文件夹' })).json().code).toBe('1023');
    expect((await post('/mkdir.action', { path: '/public/home/demo/' + 'x'.repeat(71) })).json().code).toBe(
      '1004',
    );
    expect((await post('/mkdir.action', { path: '/public/home/demo/   ' })).json().code).toBe('1004');
    const json = await h.app.inject({
      method: 'POST',
      url: '/touchFile.action',
      headers: { token },
      payload: { path: '/public/home/demo/新建文件夹/a.txt' },
    });
    expect(json.json().code).toBe('0');
    expect(fs.existsSync(h.home + '/新建文件夹/a.txt')).toBe(true);
    expect(
      (await post('/touchFile.action', { path: '/public/home/demo/新建文件夹/a.txt' })).json().code,
    ).toBe('1021');
    expect(await renameA('a.txt')).toBe('1005');
    expect(await renameA('x/y')).toBe('1027');
    // Direction overrides and C1 controls, which make one name read as another ("invoice\u202Efdp.sh" shows as
    // "invoicehs.pdf"): refused like the C0 controls, for every name made (found from outside, 2026-12-01).
    for (const trick of ['invoice\u202Efdp.sh', 'a\u2066b', 'a\u200Fb', 'a\u061Cb', 'a\u0085b'])
      expect(await renameA(trick), JSON.stringify(trick)).toBe('1027');
    expect((await post('/mkdir.action', { path: '/public/home/demo/x\u202Ey' })).json().code).toBe('1027');
    expect(fs.readdirSync(h.home + '/新建文件夹')).toEqual(['a.txt']);
    await post('/touchFile.action', { path: '/public/home/demo/新建文件夹/b.txt' });
    expect(await renameA('b.txt')).toBe('1021');
    expect(await renameA('c.txt')).toBe('0');
    expect((await post('/exist.action', { path: '/public/home/demo/新建文件夹/c.txt' })).json().data).toEqual(
      { exist: true, isDirectory: false },
    );
    expect((await post('/exist.action', { path: '/public/home/demo/nope/x' })).json().data.exist).toBe(false);
    expect((await post('/remove.action', { paths: ['/public/home/demo/新建文件夹'] })).json().code).toBe(
      '1502',
    );
    const rm = await h.app.inject({
      method: 'POST',
      url: '/remove.action?recursive=true',
      headers: { token, ...FORM },
      payload: form({ paths: ['/public/home/demo/新建文件夹'] }),
    });
    expect(rm.json()).toMatchObject({ code: '0', data: { removed: 1 } });
    expect(fs.existsSync(h.home + '/新建文件夹')).toBe(false);
    expect((await post('/remove.action', { paths: ['/public/home/demo'] })).json().code).toBe('1030');
    expect((await post('/remove.action', { paths: ['/public/home/demo/../other'] })).json().code).toBe(
      '1033',
    );
  });

  it('answers initInfo, the lazy tree and permission checks', async () => {
    const info = (await get('/initInfo.action')).json().data;
    expect(info).toMatchObject({ homePath: '/public/home/demo', username: 'demo', shareMaxValidDays: 30 });
    const roots = (await get('/treeChildrenList.action')).json().data.list;
    expect(roots.map((n: { path: string }) => n.path)).toEqual(['/public/home/demo', '/public/share/proj']);
    const kids = (await get('/treeChildrenList.action?path=/public/home/demo/big')).json().data.list;
    expect(kids).toEqual([{ name: 'zdir', path: '/public/home/demo/big/zdir', isLeaf: false }]);
    const perm = await post('/checkPermission.action', {
      path: '/public/home/demo',
      permissionAction: 'write',
    });
    expect(perm.json().data).toEqual({ allowded: true });
    const no = await post('/checkPermission.action', {
      path: '/public/home/other',
      permissionAction: 'read',
    });
    expect(no.json().data).toEqual({ allowded: false });
  });
});
