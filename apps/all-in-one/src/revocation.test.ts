import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LINUX_TOKEN_HEADER,
  type CurrentUser,
  type IssuedCredential,
  type UserSession,
} from '@hpc/contracts';
import { makeTempDir } from '@hpc/server-kit/testing';
import { Browser, PASSWORD, startDemo, type App } from './all-in-one.test-fixture';

/**
 * Issue 25 §1.2–§1.4 on the composition that serves them (portal and its efile instances in one process, one
 * revocation store): whatever ends a session, disables a user or revokes a credential stops the efile at once.
 */
const HOME = '/public/home/demo';
/** The cluster of each demo user used here (wangwu's account on 11250 is disabled; lisi has none there). */
const CLUSTER: Record<string, string> = { demo: '11250', lisi: '11251', wangwu: '11251', admin: '' };

/** The page's browser: a user agent, and the token of the user's cluster once logged in. */
class PageBrowser extends Browser {
  token = '';
  cluster = '';
  constructor(app: App, agent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0') {
    super(app, agent);
  }
  async login(username = 'demo') {
    const res = await this.call('POST', '/api/auth/login', { username, password: PASSWORD });
    if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.body}`);
    this.cluster = CLUSTER[username]!;
    this.token = dataOf<CurrentUser>(res).tokenList.find((t) => t.clusterId === this.cluster)?.token ?? '';
    return this;
  }
  /** A fast-transfer day token for a folder on the user's cluster, as the page asks for one. */
  async dayToken(directory: string) {
    const res = await this.call('POST', '/model-zoo/proxy/efile/fastrans/login', {
      directory: encodeURIComponent(directory),
      clusterId: this.cluster,
    });
    return dataOf<{ token: string }>(res).token;
  }
  /** A call to the user's cluster's efile with this browser's token (or another), as the page makes it. */
  efile(method: 'GET' | 'POST', url: string, token = this.token, json?: unknown) {
    return this.app.inject({
      method,
      url: `/efile/${this.cluster}${url}`,
      headers: { token, ...(json ? { 'content-type': 'application/json' } : {}) },
      payload: json ? JSON.stringify(json) : undefined,
    });
  }
}

const dataOf = <T>(res: LightMyRequestResponse): T => res.json<{ data: T }>().data;
const codeOf = (res: LightMyRequestResponse) => res.json<{ code: string }>().code;
const list = (b: PageBrowser, token?: string) => b.efile('GET', `/list.action?path=${HOME}`, token);

describe('revocation reaches the cluster services at once (all-in-one)', () => {
  let app: App;
  let tmp: ReturnType<typeof makeTempDir>;
  beforeAll(async () => {
    tmp = makeTempDir('revocation-');
    app = await startDemo(tmp.dir);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    tmp?.cleanup();
  });

  it('logout stops that session’s cluster token, not another session’s', async () => {
    const a = await new PageBrowser(app).login();
    const b = await new PageBrowser(app).login();
    expect(codeOf(await list(a))).toBe('0');
    await a.call('POST', '/api/auth/logout');
    const refused = await a.efile('POST', '/mkdir.action', a.token, { path: `${HOME}/after-logout` });
    expect(refused.statusCode).toBe(401);
    expect(codeOf(refused)).toBe('401');
    expect(codeOf(await list(a))).toBe('401');
    expect(codeOf(await list(b))).toBe('0');
    expect(codeOf(await list(b, a.token))).toBe('401');
  });

  it('a password change ends the other sessions (portal and efile) and keeps the one that made it', async () => {
    const keeper = await new PageBrowser(app).login('lisi');
    const other1 = await new PageBrowser(app).login('lisi');
    const other2 = await new PageBrowser(app).login('lisi');
    const changed = await keeper.call('POST', '/api/user/password', {
      oldPassword: PASSWORD,
      newPassword: 'a-new-password-2026',
    });
    expect(changed.statusCode).toBe(200);
    expect(dataOf(changed)).toEqual({ endedSessions: 2 });
    for (const o of [other1, other2]) {
      expect((await o.call('GET', '/api/user/info')).statusCode).toBe(401);
      expect(codeOf(await o.efile('GET', '/list.action?path=/public/home/lisi'))).toBe('401');
    }
    expect((await keeper.call('GET', '/api/user/info')).statusCode).toBe(200);
    expect(codeOf(await keeper.efile('GET', '/list.action?path=/public/home/lisi'))).toBe('0');
    await keeper.call('POST', '/api/user/password', {
      oldPassword: 'a-new-password-2026',
      newPassword: PASSWORD,
    });
  });

  it('the user centre lists the sessions and signs out one, or every other', async () => {
    const here = await new PageBrowser(app, 'Mozilla/5.0 (Windows NT 10.0) Firefox/128.0').login();
    const there = await new PageBrowser(app, 'curl/8.0').login();
    const third = await new PageBrowser(app).login();
    const sessions = dataOf<UserSession[]>(await here.call('GET', '/api/user/sessions'));
    const mine = sessions.find((s) => s.current)!;
    expect(mine.userAgent).toContain('Firefox');
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    // Nothing of the cookie in the page: the id is the tokens' sid, one way from the row.
    expect(JSON.stringify(sessions)).not.toContain(here.cookies.get('hpc_session'));
    const curl = sessions.find((s) => s.userAgent === 'curl/8.0')!;
    expect(dataOf(await here.call('POST', '/api/user/sessions/end', { id: curl.id }))).toEqual({ ended: 1 });
    expect((await there.call('GET', '/api/user/info')).statusCode).toBe(401);
    expect(codeOf(await list(there))).toBe('401');
    // Not found twice, nor another user's id.
    expect((await here.call('POST', '/api/user/sessions/end', { id: curl.id })).statusCode).toBe(404);
    const lisi = await new PageBrowser(app).login('lisi');
    const lisiId = dataOf<UserSession[]>(await lisi.call('GET', '/api/user/sessions')).find(
      (s) => s.current,
    )!.id;
    expect((await here.call('POST', '/api/user/sessions/end', { id: lisiId })).statusCode).toBe(404);
    expect(codeOf(await lisi.efile('GET', '/list.action?path=/public/home/lisi'))).toBe('0');

    const others = dataOf<{ ended: number }>(await here.call('POST', '/api/user/sessions/endOthers'));
    expect(others.ended).toBeGreaterThanOrEqual(1);
    expect(codeOf(await list(third))).toBe('401');
    expect(codeOf(await list(here))).toBe('0');
    const left = dataOf<UserSession[]>(await here.call('GET', '/api/user/sessions'));
    expect(left.map((s) => s.id)).toEqual([mine.id]);
  });

  it('a day token and a Linux command are listed, revocable by their user only, and refused once revoked', async () => {
    const page = await new PageBrowser(app).login('wangwu');
    const day = await page.dayToken('/public/home/wangwu');
    const cmd = dataOf<{ url: string; token: string }>(
      await page.efile('GET', '/linuxUpload.action?path=/public/home/wangwu'),
    );
    const creds = dataOf<IssuedCredential[]>(await page.call('GET', '/api/user/credentials'));
    expect(creds.map((c) => c.kind).sort()).toEqual(['fastrans', 'linux']);
    const dayCred = creds.find((c) => c.kind === 'fastrans')!;
    const linuxCred = creds.find((c) => c.kind === 'linux')!;
    expect(dayCred).toMatchObject({ clusterId: '11251', detail: '/public/home/wangwu' });
    expect(linuxCred.detail).toBe('up /public/home/wangwu');
    expect(JSON.stringify(creds)).not.toContain(day);

    // As the generated command sends it: the token in its header (LINUX_TOKEN_HEADER), not in the address.
    const put = (name: string) =>
      app.inject({
        method: 'PUT',
        url: new URL(cmd.url + name).pathname,
        headers: { [LINUX_TOKEN_HEADER]: cmd.token },
        payload: 'x',
      });
    expect(codeOf(await page.efile('GET', '/list.action?path=/public/home/wangwu', day))).toBe('0');
    expect(codeOf(await put('before.txt'))).toBe('0');

    // Another user can neither revoke them nor learn they exist.
    const demo = await new PageBrowser(app).login();
    for (const c of creds)
      expect((await demo.call('POST', '/api/user/credentials/revoke', { id: c.id })).statusCode).toBe(404);
    expect(codeOf(await put('still.txt'))).toBe('0');

    for (const c of creds)
      expect((await page.call('POST', '/api/user/credentials/revoke', { id: c.id })).statusCode).toBe(200);
    expect(codeOf(await page.efile('GET', '/list.action?path=/public/home/wangwu', day))).toBe('1406');
    expect(codeOf(await put('after.txt'))).toBe('1406');
    expect(dataOf<IssuedCredential[]>(await page.call('GET', '/api/user/credentials'))).toEqual([]);
    // The page's own session token goes on.
    expect(codeOf(await list(page, page.token))).not.toBe('401');
  });

  it("a stolen session's day token and Linux command end with it when the user ends it for safety, not at a logout", async () => {
    // Found from outside: the attacker's session minted both, the victim changed the password (or signed out
    // everywhere else), the session died and both still read and wrote the home until the end of the day.
    const home = '/public/home/lisi';
    const mint = async (b: PageBrowser) => ({
      day: await b.dayToken(home),
      cmd: dataOf<{ url: string; token: string }>(await b.efile('GET', `/linuxUpload.action?path=${home}`)),
    });
    const works = async (b: PageBrowser, m: Awaited<ReturnType<typeof mint>>) => [
      codeOf(await b.efile('GET', `/list.action?path=${home}`, m.day)),
      codeOf(
        await app.inject({
          method: 'PUT',
          url: new URL(m.cmd.url + 'stolen.txt').pathname + '?overwrite=true',
          headers: { [LINUX_TOKEN_HEADER]: m.cmd.token },
          payload: 'x',
        }),
      ),
    ];
    for (const end of ['endOthers', 'password', 'endOne'] as const) {
      const victim = await new PageBrowser(app).login('lisi');
      const thief = await new PageBrowser(app).login('lisi');
      const stolen = await mint(thief);
      const own = await mint(victim);
      expect(await works(thief, stolen)).toEqual(['0', '0']);
      // Nor may the day token make a command of its own, which no session would take with it.
      expect(codeOf(await thief.efile('GET', `/linuxUpload.action?path=${home}`, stolen.day))).toBe('1406');
      if (end === 'endOthers') await victim.call('POST', '/api/user/sessions/endOthers');
      else if (end === 'endOne') {
        const sessions = dataOf<UserSession[]>(await victim.call('GET', '/api/user/sessions'));
        for (const s of sessions.filter((x) => !x.current))
          await victim.call('POST', '/api/user/sessions/end', { id: s.id });
      } else {
        const changed = await victim.call('POST', '/api/user/password', {
          oldPassword: PASSWORD,
          newPassword: 'a-new-password-2026',
        });
        expect(changed.statusCode).toBe(200);
        await victim.call('POST', '/api/user/password', {
          oldPassword: 'a-new-password-2026',
          newPassword: PASSWORD,
        });
      }
      expect(await works(thief, stolen), end).toEqual(['1406', '1406']);
      // What the user's own session asked for goes on.
      expect(await works(victim, own), end).toEqual(['0', '0']);
      await victim.call('POST', '/api/auth/logout');
    }
    // A plain logout is no alarm: a transfer the user started goes on.
    const user = await new PageBrowser(app).login('lisi');
    const mine = await mint(user);
    await user.call('POST', '/api/auth/logout');
    expect(await works(user, mine)).toEqual(['0', '0']);
  });

  it('disabling a user stops their tokens at once, day tokens included', async () => {
    const admin = await new PageBrowser(app).login('admin');
    const user = await new PageBrowser(app).login('wangwu');
    const day = await user.dayToken('/public/home/wangwu');
    const wangwuList = (t: string) => user.efile('GET', '/list.action?path=/public/home/wangwu', t);
    expect(codeOf(await wangwuList(user.token))).toBe('0');
    expect(codeOf(await wangwuList(day))).toBe('0');
    const off = await admin.call('POST', '/api/admin/users/update', {
      username: 'wangwu',
      status: 'disabled',
    });
    expect(off.statusCode).toBe(200);
    expect(codeOf(await wangwuList(user.token))).toBe('401');
    expect(codeOf(await wangwuList(day))).not.toBe('0');
    // Tokens issued after a re-enabling pass (revocation.test.ts in server-kit checks it by their iat).
    await admin.call('POST', '/api/admin/users/update', { username: 'wangwu', status: 'active' });
  });
});
