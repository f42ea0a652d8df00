import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { makeTempDir, testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import { Browser, startPortal, type TestDb } from '../identity.test-fixture';

/**
 * Single sign-on against a real OpenID provider (oidc-provider on loopback, with its development login and consent
 * forms), driven by plain HTTP: redirects are followed by hand and the forms submitted as a browser would.
 */

const PUBLIC_URL = 'http://portal.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/loginSsoCallback.action`;

const profiles: Record<string, { preferred_username: string; name: string; email: string }> = {
  'sub-alice': { preferred_username: 'alice', name: 'Alice Zhang', email: 'alice@example.cn' },
  // Claims the name of an existing local user: must not take it over.
  'sub-mallory': { preferred_username: 'demo', name: 'Mallory', email: 'mallory@example.cn' },
};

/** The provider's side of a browser: a cookie jar and manual redirects, until the provider sends us back. */
async function throughProvider(authUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    method = 'GET';
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(CALLBACK)) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    expect(res.status, html).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no form in the provider's page: ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    method = 'POST';
    body = new URLSearchParams(
      prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt },
    ).toString();
  }
  throw new Error('too many redirects');
}

describe.each(testDbTargets())('single sign-on by OpenID Connect on $name', (target: TestDbTarget) => {
  let server: http.Server;
  let issuer: string;
  let tmp: ReturnType<typeof makeTempDir>;
  let db: TestDb;
  let portal: Awaited<ReturnType<typeof startPortal>>;

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'hpc-portal',
          client_secret: 'portal-secret',
          redirect_uris: [CALLBACK],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
      cookies: { keys: ['test-cookie-key'] },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({
          sub,
          ...(profiles[sub] ?? { preferred_username: sub, name: sub, email: '' }),
        }),
      }),
    });
    server.on('request', provider.callback());

    tmp = makeTempDir();
    db = target.create();
    portal = await startPortal(tmp.dir, db, {
      PUBLIC_URL,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'hpc-portal',
      OIDC_CLIENT_SECRET: 'portal-secret',
    });
  });
  afterAll(async () => {
    await portal.app.close();
    await db.cleanup();
    tmp.cleanup();
    await new Promise<void>((r) => server.close(() => r()));
  });

  /** The whole round trip for `sub`; returns the portal browser and the callback's answer. */
  async function ssoLogin(sub: string, redirect = '/model-zoo/list') {
    const b = new Browser(portal.app);
    const start = await b.get(`/api/auth/loginSsoRedirect.action?redirect=${encodeURIComponent(redirect)}`);
    expect(start.statusCode).toBe(302);
    const authUrl = new URL(start.headers.location as string);
    expect(authUrl.origin).toBe(issuer);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await throughProvider(authUrl.href, sub);
    const done = await b.get(`${back.pathname}${back.search}`);
    return { b, done };
  }

  it('creates the portal user on first login and logs them in; the next login finds the same user', async () => {
    const { b, done } = await ssoLogin('sub-alice');
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/model-zoo/list');
    const info = (await b.get('/api/user/info')).json();
    expect(info.data.userInfo).toEqual({
      username: 'alice',
      fullName: 'Alice Zhang',
      email: 'alice@example.cn',
      role: 'user',
      authMethod: 'oidc',
    });
    const again = await ssoLogin('sub-alice', '/');
    expect(again.done.headers.location).toBe('/');
    expect((await again.b.get('/api/user/info')).json().data.id).toBe(info.data.id);
    const row = await portal.deps.db
      .selectFrom('portal_user')
      .selectAll()
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ oidc_issuer: issuer, oidc_subject: 'sub-alice', password_hash: null });
  });

  it('never takes over a local user by name: a clashing preferred name gets a suffix', async () => {
    const { b } = await ssoLogin('sub-mallory');
    const user = (await b.get('/api/user/info')).json().data;
    expect(user.userInfo.username).toBe('demo-2');
    expect(user.tokenList).toEqual([]);
  });

  it('refuses a callback whose state is not the one this browser started, landing on the login page', async () => {
    const b = new Browser(portal.app);
    await b.get('/api/auth/loginSsoRedirect.action');
    const res = await b.get('/api/auth/loginSsoCallback.action?code=forged&state=someone-elses');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?ssoError=CSRF');
    expect(b.cookies.has('hpc_session')).toBe(false);
  });

  it('keeps the landing page on this site', async () => {
    const b = new Browser(portal.app);
    const start = await b.get('/api/auth/loginSsoRedirect.action?redirect=https://evil.example/');
    const back = await throughProvider(start.headers.location as string, 'sub-alice');
    expect((await b.get(`${back.pathname}${back.search}`)).headers.location).toBe('/');
  });

  it('tells the login page that SSO is on', async () => {
    const cfg = (await new Browser(portal.app).get('/api/auth/config')).json().data;
    expect(cfg).toMatchObject({ sso: true, ssoLoginUrl: '/api/auth/loginSsoRedirect.action' });
  });
});

describe('without single sign-on configured', () => {
  it('sends the SSO redirect call to the web login page', async () => {
    const tmp = makeTempDir();
    const db = testDbTargets()[0]!.create();
    const portal = await startPortal(tmp.dir, db);
    const res = await new Browser(portal.app).get(
      '/api/auth/loginSsoRedirect.action?redirect=/model-zoo/list',
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?redirect=%2Fmodel-zoo%2Flist');
    expect((await new Browser(portal.app).get('/api/auth/config')).json().data.sso).toBe(false);
    await portal.app.close();
    await db.cleanup();
    tmp.cleanup();
  });
});
