import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { FASTRANS_MIN_CLIENT_VERSION, FastransRefusal } from '@hpc/contracts';
import type { AppServer } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
// The whole composition: the permission check is answered by the cluster's efile, mounted on the same server.
import { buildAllInOne } from '../../../../all-in-one/src/all-in-one';
import { MAX_WEB_LOGINS_PER_DAY } from './fastrans.service';
import { Browser, dataOf, loggedIn } from '../identity/identity.test-fixture';

const PREFIX = '/model-zoo/proxy/efile/fastrans';

/** The fast-transfer web server's envelope, as far as the tests read it. */
interface WebAnswer {
  code: string;
  data: { token: string };
}

describe('portal fast-transfer calls', () => {
  let app: AppServer;
  let tmp: ReturnType<typeof makeTempDir>;
  let demo: Browser;

  beforeAll(async () => {
    tmp = makeTempDir('fastrans-portal-');
    ({ app } = await buildAllInOne({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', REQUEST_TIME_CHECK: 'false' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    demo = await loggedIn(app, 'demo');
  });
  afterAll(async () => {
    await app.close();
    tmp.cleanup();
  });

  const login = (directory: string, b = demo, extra: Record<string, string> = {}) =>
    b.post(`${PREFIX}/login`, {
      form: new URLSearchParams({ directory, clusterId: '11250', ...extra }).toString(),
    });

  /** The day token of `b`'s fast-transfer login for `home` (what the client sends the web server as `UK`). */
  const dayToken = async (home: string, b = demo) =>
    dataOf<{ token: string }>(await login(encodeURIComponent(home), b)).token;

  /** A call of the fast-transfer web server (`POST /fastrans/api`), with a web token when given. */
  const web = (body: Record<string, unknown>, token?: string) =>
    app.inject({ method: 'POST', url: `/fastrans/api${token ? `?token=${token}` : ''}`, payload: body });

  it('logs in to fast transfer for a folder of the home: a day token limited to the home', async () => {
    const res = await login(encodeURIComponent('/public/home/demo/结果'));
    expect(res.json()).toMatchObject({ code: '0', data: { clusterUserName: 'demo', clusterId: '11250' } });
    const { token, expiresAt } = dataOf<{ token: string; expiresAt: number }>(res);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ aud: '11250', paths: [], use: 'fastrans', home: '/public/home/demo' });
    const endOfDay = new Date();
    endOfDay.setHours(23, 59, 59, 999);
    expect(expiresAt).toBeLessThanOrEqual(endOfDay.getTime());
    // The token works on the cluster's efile, inside the home.
    const list = await app.inject({
      method: 'GET',
      url: '/efile/11250/list.action?path=/public/home/demo',
      headers: { token },
    });
    expect(list.json()).toMatchObject({ code: '0' });
  });

  it('refuses outside the home with the warning, and without a session or CSRF header', async () => {
    const out = await login(encodeURIComponent('/public/share/proj'));
    expect(out.json()).toMatchObject({ code: '1030', data: { reason: FastransRefusal.outsideHome } });
    const dotdot = await login(encodeURIComponent('/public/home/demo/../other'));
    expect(dotdot.json()).toMatchObject({ code: '1030' });
    const anon = await new Browser(app).post(`${PREFIX}/login`, { form: 'directory=%2Fpublic' });
    expect(anon.statusCode).toBe(401);
    const noCsrf = await demo.post(`${PREFIX}/login`, {
      form: 'directory=%2Fpublic%2Fhome%2Fdemo',
      noCsrf: true,
    });
    expect(noCsrf.json()).toMatchObject({ code: 'CSRF' });
  });

  /**
   * The `fastrans.json` of a package downloaded by `b` and its tar mode. The package is a part of no entries: the
   * route appends the per-download fastrans.json and the archive's end (a tar of one entry: its data after the
   * 512-byte header).
   */
  const packageConfigOf = async (b: Browser) => {
    const part = path.join(tmp.dir, 'empty.tar.gz.part');
    if (!fs.existsSync(part)) fs.writeFileSync(part, zlib.gzipSync(Buffer.alloc(0)));
    const before = process.env.FASTRANS_PACKAGE;
    process.env.FASTRANS_PACKAGE = part;
    try {
      const res = await b.get('/share/fasttrans-client.tar.gz');
      expect(res.statusCode).toBe(200);
      const tar = zlib.gunzipSync(res.rawPayload);
      const size = parseInt(tar.subarray(124, 136).toString('ascii').trim(), 8);
      expect(tar.subarray(0, 100).toString('ascii')).toMatch(/^fasttrans-client\/fastrans\.json/);
      const mode = parseInt(tar.subarray(100, 108).toString('ascii').trim(), 8);
      const config = JSON.parse(tar.subarray(512, 512 + size).toString('utf8')) as { clientKey?: string };
      return { config, mode };
    } finally {
      if (before === undefined) delete process.env.FASTRANS_PACKAGE;
      else process.env.FASTRANS_PACKAGE = before;
    }
  };
  /** A client's proof of `sign` with `key` (base64url), as the client makes it. */
  const proofOf = (key: string, sign: string) =>
    crypto.createHmac('sha256', Buffer.from(key, 'base64url')).update(sign).digest('base64url');
  const verify = (body: unknown, b = demo) => b.post(`${PREFIX}/verifyClient`, { json: body });

  it("verifies a local client's proof of the page's sign with the user's key from the package the user downloaded", async () => {
    const mine = await packageConfigOf(demo);
    const demoKey = mine.config.clientKey!;
    expect(demoKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A key is for its owner's eyes: unpacked 0600.
    expect(mine.mode & 0o077).toBe(0);
    // Every download of one user carries the same key (a client keeps working after a new download elsewhere).
    expect((await packageConfigOf(demo)).config.clientKey).toBe(demoKey);
    const lisiKey = (await packageConfigOf(await loggedIn(app, 'lisi'))).config.clientKey!;
    expect(lisiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lisiKey).not.toBe(demoKey);
    // Downloaded without a session: no key (such a client is not used by the page directly).
    expect((await packageConfigOf(new Browser(app))).config.clientKey).toBeUndefined();
    const sign = crypto.randomBytes(16).toString('base64url');
    // The user's own client: ok.
    const right = await verify({ sign, proof: proofOf(demoKey, sign) });
    expect(right.json()).toMatchObject({ code: '0', data: { ok: true } });
    // Another user's client (lisi's key), a proof of another sign, garbage, an empty proof: not ok.
    for (const wrong of [
      proofOf(lisiKey, sign),
      proofOf(demoKey, sign + 'x'),
      'garbage',
      '',
      proofOf(demoKey, sign) + 'A',
    ])
      expect((await verify({ sign, proof: wrong })).json()).toMatchObject({ code: '0', data: { ok: false } });
    // lisi's own proof is ok for lisi only.
    const lisi = await loggedIn(app, 'lisi');
    expect((await verify({ sign, proof: proofOf(lisiKey, sign) }, lisi)).json()).toMatchObject({
      data: { ok: true },
    });
    // A session and the CSRF header, like the page's other calls; a malformed body is refused.
    expect((await verify({ sign, proof: proofOf(demoKey, sign) }, new Browser(app))).statusCode).toBe(401);
    const noCsrf = await demo.post(`${PREFIX}/verifyClient`, {
      json: { sign, proof: proofOf(demoKey, sign) },
      noCsrf: true,
    });
    expect(noCsrf.json()).toMatchObject({ code: 'CSRF' });
    expect((await verify({ sign: '', proof: 'x' })).json()).toMatchObject({ code: '1004' });
    // The secret lives beside the signing keys, its owner's only (client-key-secret.test.ts: read back, not made anew).
    const secret = path.join(tmp.dir, 'keys', 'fastrans-client.secret');
    expect(fs.statSync(secret).mode & 0o077).toBe(0);
  });

  it('checks write permission through the cluster efile (allowded)', async () => {
    const check = (p: string) =>
      demo.post(`${PREFIX}/checkPermission`, {
        json: { path: p, permissionAction: 'write', clusterId: '11250' },
      });
    const yes = await check('/public/home/demo');
    expect(yes.json()).toEqual({ code: '0', msg: expect.any(String), data: { allowded: true } });
    const no = await check('/public/share/proj');
    expect(dataOf(no)).toEqual({ allowded: false });
  });

  it('web server: login with the day token, the servers of the cluster with the token suffix, the update prompt', async () => {
    const uk = await dayToken('/public/home/demo');
    const old = await web({ id: 1, version: '0.9.0', module: 'user', action: 'login', UK: uk });
    expect(old.json()).toMatchObject({
      id: 1,
      code: '1002',
      data: { minVersion: FASTRANS_MIN_CLIENT_VERSION },
    });
    const bad = await web({
      id: 2,
      version: '1.0.0',
      module: 'user',
      action: 'login',
      UK: uk.slice(0, -3) + 'AAA',
    });
    expect(bad.json()).toMatchObject({ id: 2, code: '1001' });
    const ok = await web({ id: 3, version: '1.0.0', module: 'user', action: 'login', UK: uk });
    expect(ok.json()).toMatchObject({
      id: 3,
      code: '0',
      data: { clusterId: '11250', clusterUserName: 'demo' },
    });
    const token = ok.json<{ data: { token: string } }>().data.token;
    const servers = await web({ id: 4, version: '1.0.0', module: 'server', action: 'list' }, token);
    expect(servers.json()).toMatchObject({
      id: 4,
      code: '0',
      data: { servers: [{ url: '/efile/11250', clusterId: '11250' }] },
    });
    expect((await web({ id: 5, version: '1.0.0', module: 'server', action: 'list' })).json().code).toBe(
      '1003',
    );
    await web({ id: 6, version: '1.0.0', module: 'client', action: 'heartbeat' }, token);
    // A client without an id (an older one) is listed as the one legacy client.
    expect(dataOf(await demo.get(`${PREFIX}/presence`))).toMatchObject({
      running: true,
      version: '1.0.0',
      clients: [{ id: 'legacy', label: '', version: '1.0.0', relay: false }],
    });
    // A client that stops (not logging out) is forgotten at once; the user's other client and the login stay.
    const beat = (client: string) =>
      web({ id: 9, version: '1.0.0', module: 'client', action: 'heartbeat', client, label: client }, token);
    await beat('stopper');
    await beat('stayer');
    const ids = async () =>
      dataOf<{ clients: { id: string }[] }>(await demo.get(`${PREFIX}/presence`)).clients.map((c) => c.id);
    expect(await ids()).toEqual(expect.arrayContaining(['stopper', 'stayer']));
    const stop = await web(
      { id: 10, version: '1.0.0', module: 'client', action: 'stop', client: 'stopper', label: 'stopper' },
      token,
    );
    expect(stop.json().code).toBe('0');
    expect(await ids()).not.toContain('stopper');
    expect(await ids()).toContain('stayer');
    expect(
      (await web({ id: 11, version: '1.0.0', module: 'server', action: 'list' }, token)).json().code,
    ).toBe('0');
    // Without a login it changes nothing.
    expect(
      (await web({ id: 12, version: '1.0.0', module: 'client', action: 'stop', client: 'stayer' })).json()
        .code,
    ).toBe('1003');
    expect(await ids()).toContain('stayer');
    await web({ id: 13, version: '1.0.0', module: 'client', action: 'stop', client: 'stayer' }, token);
    expect(await ids()).toEqual(['legacy']);
    await web({ id: 7, version: '1.0.0', module: 'user', action: 'logout' }, token);
    expect(
      (await web({ id: 8, version: '1.0.0', module: 'server', action: 'list' }, token)).json().code,
    ).toBe('1003');
    expect(fs.existsSync(path.join(tmp.dir, 'clusters'))).toBe(true);
  });

  it("web server: every call checks the user's rights of the moment (issue 24 §3.5)", async () => {
    const admin = await loggedIn(app, 'admin');
    const post = async (url: string, json: unknown) =>
      expect((await admin.post(url, { json })).json(), url).toMatchObject({ code: '0' });
    await post('/api/admin/users', { username: 'zhaoft', password: 'zhaoft-pass-1', fullName: '赵' });
    await post('/api/admin/accounts', { accountId: 'acct-zft', name: '赵组', balance: 1000 });
    await post('/api/admin/members', { accountId: 'acct-zft', username: 'zhaoft' });
    await post('/api/admin/computeusers', { username: 'zhaoft', clusterId: '11250', accountId: 'acct-zft' });
    const zhao = new Browser(app);
    expect((await zhao.login('zhaoft', 'zhaoft-pass-1')).statusCode).toBe(200);
    const uk = await dayToken('/public/home/zhaoft', zhao);
    const call = async (body: Record<string, unknown>, token?: string) =>
      (await web({ id: 1, version: '1.0.0', ...body }, token)).json<WebAnswer>();
    const first = await call({ module: 'user', action: 'login', UK: uk });
    expect(first.code).toBe('0');
    const list = () => call({ module: 'server', action: 'list' }, first.data.token);
    const relayPoll = async () =>
      (
        await app.inject({
          method: 'POST',
          url: `/fastrans/relay/poll?token=${first.data.token}`,
          payload: { after: 0, version: '1.0.0' },
        })
      ).json<{ code: string }>().code;
    expect((await list()).code).toBe('0');

    // The account disabled: the running web login and a new one are refused with "1007", the relay too.
    await post('/api/admin/accounts', { accountId: 'acct-zft', status: 'Disable' });
    expect(await list()).toMatchObject({ code: '1007', msg: 'The user or account is disabled' });
    // A caller asking for Chinese is answered in Chinese, and told so.
    const inChinese = await app.inject({
      method: 'POST',
      url: `/fastrans/api?token=${first.data.token}`,
      headers: { 'accept-language': 'zh-CN' },
      payload: { id: 1, version: '1.0.0', module: 'server', action: 'list' },
    });
    expect(inChinese.json()).toMatchObject({ code: '1007', msg: '用户或账户已停用' });
    expect(inChinese.headers['content-language']).toBe('zh-CN');
    expect(await relayPoll()).toBe('1007');
    expect((await call({ module: 'user', action: 'login', UK: uk })).code).toBe('1007');
    expect((await call({ module: 'client', action: 'heartbeat' }, first.data.token)).code).toBe('1007');
    await post('/api/admin/accounts', { accountId: 'acct-zft', status: 'Normal' });
    expect((await list()).code).toBe('0');

    // The portal user disabled: every day token made before is revoked, the login with it refused.
    await post('/api/admin/users/update', { username: 'zhaoft', status: 'disabled' });
    expect((await list()).code).not.toBe('0');
    expect((await call({ module: 'user', action: 'login', UK: uk })).code).not.toBe('0');
    await post('/api/admin/users/update', { username: 'zhaoft', status: 'active' });
    // Still refused: the token was made before the disabling (a new login gives a new one).
    expect((await call({ module: 'user', action: 'login', UK: uk })).code).toBe('1406');
  });

  it("web server: a parallel burst of logins past the day's allowance keeps exactly the allowance (429 after)", async () => {
    const admin = await loggedIn(app, 'admin');
    const post = async (url: string, json: unknown) =>
      expect((await admin.post(url, { json })).json(), url).toMatchObject({ code: '0' });
    await post('/api/admin/users', { username: 'qianft', password: 'qianft-pass-1', fullName: '钱' });
    await post('/api/admin/accounts', { accountId: 'acct-qft', name: '钱组', balance: 1000 });
    await post('/api/admin/members', { accountId: 'acct-qft', username: 'qianft' });
    await post('/api/admin/computeusers', { username: 'qianft', clusterId: '11250', accountId: 'acct-qft' });
    const qian = new Browser(app);
    expect((await qian.login('qianft', 'qianft-pass-1')).statusCode).toBe(200);
    const uk = await dayToken('/public/home/qianft', qian);
    const burst = await Promise.all(
      Array.from({ length: MAX_WEB_LOGINS_PER_DAY + 20 }, (_, i) =>
        web({ id: i, version: '1.0.0', module: 'user', action: 'login', UK: uk }),
      ),
    );
    const codes = burst.map((r) => r.json<{ code: string }>().code);
    expect(codes.filter((c) => c === '0')).toHaveLength(MAX_WEB_LOGINS_PER_DAY);
    expect(codes.filter((c) => c === '429')).toHaveLength(20);
    const zh = await app.inject({
      method: 'POST',
      url: '/fastrans/api',
      headers: { 'accept-language': 'zh-CN' },
      payload: { id: 1, version: '1.0.0', module: 'user', action: 'login', UK: uk },
    });
    expect(zh.json()).toMatchObject({ code: '429', msg: expect.stringContaining('快传客户端登录次数过多') });
    // Another user's allowance is their own.
    const other = await web({
      id: 1,
      version: '1.0.0',
      module: 'user',
      action: 'login',
      UK: await dayToken('/public/home/demo'),
    });
    expect(other.json()).toMatchObject({ code: '0' });
  });

  it("relay: a page reaches only its own user's client, and only while that client is logged in", async () => {
    const uk = await dayToken('/public/home/demo');
    const signIn = await web({ id: 1, version: '1.0.0', module: 'user', action: 'login', UK: uk });
    const token = signIn.json<{ data: { token: string } }>().data.token;
    const poll = (t: string, after = 0) =>
      app.inject({
        method: 'POST',
        url: `/fastrans/relay/poll?token=${encodeURIComponent(t)}`,
        payload: { after, version: '1.0.0' },
      });
    const relay = (b: Browser, m: Record<string, unknown>, opts: { noCsrf?: boolean } = {}) =>
      b.post(`${PREFIX}/relay`, { json: m, ...opts });

    // Logged in but not polling (a client without the relay, or the command line's upload): the page is told at
    // once that the relay cannot reach it, instead of waiting for an answer that cannot come.
    await app.inject({
      method: 'POST',
      url: `/fastrans/api?token=${token}`,
      payload: { id: 2, version: '1.0.0', module: 'client', action: 'heartbeat' },
    });
    expect((await relay(demo, { action: 'check', sign: 's' })).json()).toMatchObject({ code: '631013' });

    // demo's client polls: demo's page reaches it, and gets its answer. (An injected call starts when awaited.)
    const first = poll(token).then((r) =>
      r.json<{ data: { seq: number; requests: { n: number; m: unknown }[] } }>(),
    );
    const answered = first.then(({ data }) =>
      app.inject({
        method: 'POST',
        url: `/fastrans/relay/answer?token=${token}`,
        payload: { n: data.requests[0]!.n, answer: { code: '0', msg: '', data: { sign: 's' } } },
      }),
    );
    // The poll marks the client as listening when it starts: the page asks until the relay takes its request.
    let asked: { code: string };
    do asked = (await relay(demo, { action: 'check', sign: 's' })).json<{ code: string }>();
    while (asked.code === '631013');
    expect(asked).toEqual({ code: '0', msg: '', data: { sign: 's' } });
    expect((await first).data.requests).toEqual([
      { n: expect.any(Number), m: { action: 'check', sign: 's' } },
    ]);
    expect((await answered).json()).toMatchObject({ code: '0' });

    // A refusal of the client's own reaches the page in the page's language (its Chinese came with the answer);
    // the relay's own refusal too, and both say which language they are in.
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };
    const next = poll(token, (await first).data.seq).then((r) =>
      r.json<{ data: { requests: { n: number }[] } }>(),
    );
    void next.then(({ data }) =>
      app.inject({
        method: 'POST',
        url: `/fastrans/relay/answer?token=${token}`,
        payload: {
          n: data.requests[0]!.n,
          answer: { code: '30003', msg: 'Log in first', zh: '请先登录', data: null },
        },
      }),
    );
    const refused = await demo.post(`${PREFIX}/relay`, { json: { action: 'servers' }, headers: zh });
    expect(refused.json()).toEqual({ code: '30003', msg: '请先登录', data: null });
    expect(refused.headers['content-language']).toBe('zh-CN');
    await next;

    // Another user's page does not reach demo's client (its own has never called); nobody without a session or
    // the CSRF header does; a client without a valid web token polls nothing.
    const lisi = await loggedIn(app, 'lisi');
    expect((await relay(lisi, { action: 'list' })).json()).toMatchObject({ code: '631013' });
    const notRunning = await lisi.post(`${PREFIX}/relay`, { json: { action: 'list' }, headers: zh });
    expect(notRunning.json()).toMatchObject({ code: '631013', msg: '快传客户端未运行' });
    expect((await relay(lisi, { action: 'list' })).json()).toMatchObject({
      msg: 'The fast-transfer client is not running',
    });
    expect((await relay(new Browser(app), { action: 'list' })).statusCode).toBe(401);
    expect((await relay(demo, { action: 'list' }, { noCsrf: true })).json()).toMatchObject({ code: 'CSRF' });
    expect((await poll('not-a-token')).json()).toMatchObject({ code: '1003' });

    // The client logs out: its poll is refused, and at once the page neither sees it running nor queues for it
    // (a poll that was waiting then ends empty: relay.service.test.ts).
    await app.inject({
      method: 'POST',
      url: `/fastrans/api?token=${token}`,
      payload: { id: 3, version: '1.0.0', module: 'user', action: 'logout' },
    });
    expect((await poll(token)).json()).toMatchObject({ code: '1003' });
    expect(dataOf(await demo.get(`${PREFIX}/presence`))).toEqual({
      running: false,
      version: null,
      clients: [],
    });
    expect((await relay(demo, { action: 'list' })).json()).toMatchObject({ code: '631013' });
  }, 40_000);

  it("relay: with the user's clients on two machines, the page's action reaches the one it names", async () => {
    const uk = await dayToken('/public/home/demo');
    const call = (body: Record<string, unknown>, token?: string) =>
      web({ id: 1, version: '1.1.0', ...body }, token);
    const machines = [
      { client: 'workstation-id', label: 'workstation' },
      { client: 'laptop-id', label: 'laptop' },
    ];
    const tokens: string[] = [];
    for (const who of machines)
      tokens.push(
        (await call({ module: 'user', action: 'login', UK: uk, ...who })).json<{ data: { token: string } }>()
          .data.token,
      );
    type Batch = { data: { requests: { n: number; m: Record<string, unknown> }[] } };
    const poll = (i: number) =>
      app
        .inject({
          method: 'POST',
          url: `/fastrans/relay/poll?token=${tokens[i]}`,
          payload: { after: 0, version: '1.1.0', ...machines[i] },
        })
        .then((r) => r.json<Batch>().data.requests);
    // Both poll (each poll marks its client as listening when it starts: the page waits until both are listed).
    const workstation = poll(0);
    const laptop = poll(1);
    type Listed = { clients: { id: string; label: string; relay: boolean }[] };
    let presence: Listed;
    do presence = dataOf<Listed>(await demo.get(`${PREFIX}/presence`));
    while (presence.clients.filter((c) => c.relay).length < 2);
    expect(presence.clients.map((c) => [c.id, c.label, c.relay]).sort()).toEqual([
      ['laptop-id', 'laptop', true],
      ['workstation-id', 'workstation', true],
    ]);
    // Naming none while two poll: refused with the reason the page translates, not a guess.
    expect((await demo.post(`${PREFIX}/relay`, { json: { action: 'list' } })).json()).toMatchObject({
      code: '1004',
      data: { reason: 'fastransChooseClient' },
    });

    // The page names the laptop: only the laptop's poll gets the action, without the name in it.
    const asked = demo.post(`${PREFIX}/relay`, {
      json: { action: 'list', path: '/home/me', client: 'laptop-id' },
    });
    const got = await laptop;
    expect(got.map((r) => r.m)).toEqual([{ action: 'list', path: '/home/me' }]);
    await app.inject({
      method: 'POST',
      url: `/fastrans/relay/answer?token=${tokens[1]}`,
      payload: { n: got[0]!.n, client: 'laptop-id', answer: { code: '0', msg: '', data: 'laptop listing' } },
    });
    expect((await asked).json()).toMatchObject({ code: '0', data: 'laptop listing' });

    // The workstation logs out: the laptop stays listed and reachable; the workstation is not running.
    await call({ module: 'user', action: 'logout', ...machines[0] }, tokens[0]);
    // Its waiting poll ends empty: the laptop's request never reached it.
    expect(await workstation).toEqual([]);
    const after = dataOf<{ clients: { id: string }[] }>(await demo.get(`${PREFIX}/presence`));
    expect(after.clients.map((c) => c.id)).toEqual(['laptop-id']);
    expect(
      (await demo.post(`${PREFIX}/relay`, { json: { action: 'list', client: 'workstation-id' } })).json(),
    ).toMatchObject({ code: '631013' });
  }, 40_000);

  it("revoking the client key: earlier packages' clients are no longer the user's, their day tokens end; a new download works", async () => {
    const demo2 = await loggedIn(app, 'demo');
    const lisi = await loggedIn(app, 'lisi');
    const oldKey = (await packageConfigOf(demo)).config.clientKey!;
    const lisiKey = (await packageConfigOf(lisi)).config.clientKey!;
    const sign = crypto.randomBytes(16).toString('base64url');
    const verdict = async (key: string, b = demo) =>
      dataOf<{ ok: boolean }>(await verify({ sign, proof: proofOf(key, sign) }, b)).ok;
    expect(await verdict(oldKey)).toBe(true);
    // A client of that key was handed a day token and logged in to the web server with it.
    const uk = await dayToken('/public/home/demo');
    const login = await web({ id: 1, version: '1.0.0', module: 'user', action: 'login', UK: uk });
    const webToken = login.json<{ data: { token: string } }>().data.token;
    const list = (token: string) =>
      app.inject({
        method: 'GET',
        url: '/efile/11250/list.action?path=/public/home/demo',
        headers: { token },
      });
    expect((await list(uk)).json()).toMatchObject({ code: '0' });

    // A session and the CSRF header, as the page's other calls: without them nothing moves.
    const revoke = (b: Browser, noCsrf = false) => b.post(`${PREFIX}/revokeClientKey`, { noCsrf });
    expect((await revoke(new Browser(app))).statusCode).toBe(401);
    expect((await revoke(demo, true)).json()).toMatchObject({ code: 'CSRF' });
    expect(await verdict(oldKey)).toBe(true);

    // Two pages of the user revoke at once: both answered, the day token revoked.
    const both = await Promise.all([revoke(demo), revoke(demo2)]);
    for (const r of both)
      expect(r.json()).toMatchObject({ code: '0', data: { revokedTokens: expect.any(Number) } });
    expect(
      both.reduce((n, r) => n + dataOf<{ revokedTokens: number }>(r).revokedTokens, 0),
    ).toBeGreaterThanOrEqual(1);

    // The old key proves nothing any more; its day token and web login are refused.
    expect(await verdict(oldKey)).toBe(false);
    expect((await list(uk)).json().code).not.toBe('0');
    const servers = await web({ id: 2, version: '1.0.0', module: 'server', action: 'list' }, webToken);
    expect(servers.json().code).not.toBe('0');
    // A new download carries the new key, which the page trusts; the same for every download from now on.
    const newKey = (await packageConfigOf(demo)).config.clientKey!;
    expect(newKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(oldKey);
    expect((await packageConfigOf(demo2)).config.clientKey).toBe(newKey);
    expect(await verdict(newKey)).toBe(true);
    // Another user's key is untouched.
    expect(await verdict(lisiKey, lisi)).toBe(true);
    expect(await verdict(newKey, lisi)).toBe(false);
  });
});
