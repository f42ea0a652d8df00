import { describe, expect, it } from 'vitest';
import { REQUEST_TIME_HEADER } from '@hpc/contracts';
import { encodeRequestTime } from '@hpc/api-client';
import { testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import { Browser, loggedIn, usePortal } from '../identity.test-fixture';

describe.each(testDbTargets())('CSRF, request time and cookie flags on $name', (target: TestDbTarget) => {
  const portal = usePortal(target, { TRUST_PROXY: 'true' });

  it('refuses a state-changing call of a session without the CSRF header, or with a wrong one', async () => {
    const b = await loggedIn(portal.app, 'demo');
    for (const headers of [{}, { 'x-csrf-token': 'forged' }] as Record<string, string>[]) {
      const res = await b.post('/api/auth/refresh', { noCsrf: true, headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'CSRF' });
    }
    const good = await b.post('/api/auth/refresh');
    expect(good.statusCode).toBe(200);
    expect(good.json().data.tokenList).toHaveLength(2);
    // Another session's token does not do either.
    const other = await loggedIn(portal.app, 'demo');
    const crossed = await b.post('/api/auth/refresh', {
      noCsrf: true,
      headers: { 'x-csrf-token': other.cookies.get('csrf')! },
    });
    expect(crossed.statusCode).toBe(403);
  });

  it('checks a state-changing call by the route it reaches, however its path is spelled', async () => {
    const b = await loggedIn(portal.app, 'demo');
    const other = await loggedIn(portal.app, 'demo');
    // The router decodes the path: each of these reaches /api/user/sessions/endOthers.
    const spellings = [
      '/api/user/sessions/endOthers',
      '/%61pi/user/sessions/endOthers',
      '/%61%70%69/user/sessions/endOthers',
      '/api/%75ser/sessions/end%4Fthers',
    ];
    for (const url of spellings) {
      const csrf = await b.post(url, { noCsrf: true });
      expect(csrf.statusCode, url).toBe(403);
      expect(csrf.json(), url).toMatchObject({ code: 'CSRF' });
      const time = await b.post(url, { noTime: true });
      expect(time.statusCode, url).toBe(400);
      expect(time.json(), url).toMatchObject({ code: 'REQUEST_TIME' });
    }
    // Other spellings reach no route (the router is case- and slash-exact) or, resolved first, the checked one.
    for (const url of [
      '/API/user/sessions/endOthers',
      '/api//user/sessions/endOthers',
      '/api/./user/sessions/endOthers',
    ]) {
      expect([403, 404], url).toContain((await b.post(url, { noCsrf: true })).statusCode);
    }
    // None of them ended the other session; the checked call does.
    expect((await other.get('/api/user/info')).statusCode).toBe(200);
    expect((await b.post('/api/user/sessions/endOthers')).statusCode).toBe(200);
    expect((await other.get('/api/user/info')).statusCode).toBe(401);
  });

  it('lets the anonymous read-only catalogue POSTs and GETs through without CSRF', async () => {
    const b = await loggedIn(portal.app, 'demo');
    // Not an /api/ route: no CSRF (it is whatever the catalogue answers, but never CSRF).
    const res = await b.post('/image-center/image/list', { json: {}, noCsrf: true });
    expect(res.json().code).not.toBe('CSRF');
    expect((await b.get('/api/account/list', { noCsrf: true })).statusCode).toBe(200);
  });

  it('refuses a login posted from a foreign origin or cross-site', async () => {
    const b = new Browser(portal.app);
    const foreign = await b.post('/api/auth/login', {
      json: { username: 'demo', password: 'demo-portal-2026' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'CSRF' });
    const same = await b.post('/api/auth/login', {
      json: { username: 'demo', password: 'demo-portal-2026' },
      headers: { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' },
    });
    expect(same.statusCode).toBe(200);
  });

  it('asks for the request-time header on state-changing and identity calls, and checks it wherever sent', async () => {
    const b = await loggedIn(portal.app, 'demo');
    const missing = await b.post('/api/auth/refresh', { noTime: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'REQUEST_TIME' });
    expect((await b.get('/api/user/info', { noTime: true })).json()).toMatchObject({ code: 'REQUEST_TIME' });
    // Other reads and the JWKS (fetched by efile) work without it.
    expect((await b.get('/api/account/list', { noTime: true })).statusCode).toBe(200);
    expect((await b.get('/api/auth/jwks.json', { noTime: true })).statusCode).toBe(200);
    const skewed = await b.get('/api/account/list', {
      noTime: true,
      headers: { [REQUEST_TIME_HEADER]: await encodeRequestTime(Date.now() - 10 * 60_000) },
    });
    expect(skewed.statusCode).toBe(400);
    expect(skewed.json()).toMatchObject({ code: 'REQUEST_TIME' });
  });

  it('marks the cookies Secure when the request came over https through a trusted proxy', async () => {
    const res = await new Browser(portal.app).login('demo', undefined);
    expect(res.cookies.find((c) => c.name === 'hpc_session')!.secure).toBeFalsy();
    const https = await new Browser(portal.app).post('/api/auth/login', {
      json: { username: 'demo', password: 'demo-portal-2026' },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.statusCode).toBe(200);
    for (const name of ['hpc_session', 'csrf']) {
      expect(https.cookies.find((c) => c.name === name)!.secure).toBe(true);
    }
  });
});

describe('Secure cookies behind an https PUBLIC_URL', () => {
  const portal = usePortal(testDbTargets()[0]!, { PUBLIC_URL: 'https://portal.example.org' });
  it('sets Secure even when the proxy is not trusted', async () => {
    const res = await new Browser(portal.app).post('/api/auth/login', {
      json: { username: 'demo', password: 'demo-portal-2026' },
      headers: { origin: 'https://portal.example.org' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'hpc_session')!.secure).toBe(true);
    // With a PUBLIC_URL, only its origin may post the login.
    const other = await new Browser(portal.app).post('/api/auth/login', {
      json: { username: 'demo', password: 'demo-portal-2026' },
      headers: { origin: 'http://localhost:80' },
    });
    expect(other.statusCode).toBe(403);
  });

  it("keeps every answer of the portal's calls out of caches: tokens, cookies and the user's data", async () => {
    const login = await new Browser(portal.app).login('demo');
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const b = await loggedIn(portal.app, 'demo');
    const answers = { info: await b.get('/api/user/info'), refresh: await b.post('/api/auth/refresh') };
    for (const [call, res] of Object.entries(answers))
      expect(res.headers['cache-control'], call).toBe('no-store');
    // What is public and the same for everyone still says how long it may be kept.
    expect((await b.get('/api/auth/jwks.json')).headers['cache-control']).toBe('public, max-age=300');
  });
});
