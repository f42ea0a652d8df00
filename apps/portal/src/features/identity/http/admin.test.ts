import { beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import type { AccountDetail, AdminUser, Cluster } from '@hpc/contracts';
import { Browser, dataOf, loggedIn, usePortal } from '../identity.test-fixture';

describe.each(testDbTargets())('admin calls on $name', (target: TestDbTarget) => {
  let admin: Browser;
  const portal = usePortal(target);

  beforeAll(async () => {
    admin = await loggedIn(portal.app, 'admin');
  });

  it('answers 401 to an anonymous caller and 403 to an ordinary user', async () => {
    expect((await new Browser(portal.app).get('/api/admin/users')).statusCode).toBe(401);
    const demo = await loggedIn(portal.app, 'demo');
    expect((await demo.get('/api/admin/users')).statusCode).toBe(403);
    expect((await demo.post('/api/admin/accounts', { json: { accountId: 'x', name: 'x' } })).statusCode).toBe(
      403,
    );
  });

  it('lists users without their password hashes, stored as argon2id', async () => {
    const users = dataOf<AdminUser[]>(await admin.get('/api/admin/users'));
    expect(users.map((u) => u.username)).toEqual(['admin', 'demo', 'wangwu', 'lisi']);
    expect(JSON.stringify(users)).not.toContain('argon2');
    const row = await portal.deps.db
      .selectFrom('portal_user')
      .select('password_hash')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('sets up a new user end to end, and a password reset ends their sessions', async () => {
    const post = async (url: string, json: unknown) => {
      const res = await admin.post(url, { json });
      expect(res.json(), url).toMatchObject({ code: '0' });
    };
    await post('/api/admin/users', { username: 'qian', password: 'qian-pass-1', fullName: '钱七' });
    await post('/api/admin/accounts', { accountId: 'acct-q', name: '钱课题组', balance: 10 });
    await post('/api/admin/accounts', { accountId: 'acct-q', balance: 1000, status: 'Normal' });
    await post('/api/admin/members', { accountId: 'acct-q', username: 'qian' });
    await post('/api/admin/computeusers', { username: 'qian', clusterId: '11251', accountId: 'acct-q' });
    await post('/api/admin/clusters/service', {
      clusterId: '11251',
      service: 'efileUrl',
      entries: [
        { url: 'https://ks1.example/efile', enable: 'true' },
        { url: '/efile/11251', enable: 'true' },
      ],
    });
    const accounts = dataOf<AccountDetail[]>(await admin.get('/api/admin/accounts'));
    expect(accounts.find((a) => a.accountId === 'acct-q')).toMatchObject({
      balance: 1000,
    });

    const qian = new Browser(portal.app);
    expect((await qian.login('qian', 'qian-pass-1')).statusCode).toBe(200);
    const info = (await qian.get('/model-zoo/proxy/efile/info')).json().data;
    expect(info.efileUrls).toEqual(['https://ks1.example/efile', '/efile/11251']);
    expect(info.efileUrl).toBe(info.efileUrls[(await qian.get('/api/user/info')).json().data.id % 2]);

    await post('/api/admin/users/update', { username: 'qian', password: 'qian-pass-2' });
    expect((await qian.get('/api/account/list')).statusCode).toBe(401);
    expect((await new Browser(portal.app).login('qian', 'qian-pass-2')).statusCode).toBe(200);
  });

  it('refuses bad input with a clear code and changes nothing', async () => {
    const bad = await admin.post('/api/admin/clusters', { json: { clusterId: 'bad id!', centerName: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('1004');
    const dup = await admin.post('/api/admin/clusters', { json: { clusterId: '11250', centerName: 'x' } });
    expect(dup.statusCode).toBe(409);
    const notMember = await admin.post('/api/admin/computeusers', {
      json: { username: 'demo', clusterId: '11252', accountId: 'acct-lisi' },
    });
    expect(notMember.json().code).toBe('1018');
    const clusters = dataOf<Cluster[]>(await admin.get('/api/center/queryCurClusterList.action'));
    expect(clusters.map((c) => c.clusterId)).toEqual(['11250', '11251', '11252']);
  });

  it('makes one user of 20 requests for the same name at once; the others are told the name is taken (409)', async () => {
    const res = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin.post('/api/admin/users', {
          json: { username: 'burst1', password: 'burst-pass-1' },
          headers: { 'accept-language': 'zh-CN' },
        }),
      ),
    );
    const statuses = res.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    for (const r of res.filter((x) => x.statusCode === 409))
      expect(r.json()).toMatchObject({ code: '1004', msg: '用户名 burst1 已存在' });
    const users = dataOf<AdminUser[]>(await admin.get('/api/admin/users'));
    expect(users.filter((u) => u.username === 'burst1')).toHaveLength(1);
  });

  it('changes a user or an account all at once: a refused field leaves the others as they were', async () => {
    await admin.post('/api/admin/accounts', { json: { accountId: 'acct-t', name: '原名', balance: 5 } });
    const refused = await admin.post('/api/admin/accounts', {
      json: { accountId: 'acct-t', name: '新名', status: 'Disable', balance: 1e13 },
    });
    expect(refused.json().code).toBe('1004');
    const accounts = dataOf<AccountDetail[]>(await admin.get('/api/admin/accounts'));
    expect(accounts.find((a) => a.accountId === 'acct-t')).toMatchObject({
      name: '原名',
      status: 'Normal',
      balance: 5,
    });

    const wangwu = await loggedIn(portal.app, 'wangwu');
    const short = await admin.post('/api/admin/users/update', {
      json: { username: 'wangwu', fullName: '不该改', role: 'manager', password: 'x' },
    });
    expect(short.json().code).toBe('1004');
    const users = dataOf<AdminUser[]>(await admin.get('/api/admin/users'));
    expect(users.find((u) => u.username === 'wangwu')).toMatchObject({ role: 'user' });
    expect(users.find((u) => u.username === 'wangwu')?.fullName).not.toBe('不该改');
    expect((await wangwu.get('/api/account/list')).statusCode).toBe(200);

    const unknown = await admin.post('/api/admin/users/update', {
      json: { username: 'nobody', role: 'user' },
    });
    expect(unknown.json().code).toBe('404');
  });
});
