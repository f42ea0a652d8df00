import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { CurrentUser } from '@hpc/contracts';
import { createClusterTokenVerifier } from '@hpc/server-kit';
import { testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import { Browser, dataOf, loggedIn, usePortal } from '../identity.test-fixture';

describe.each(testDbTargets())('auth on $name', (target: TestDbTarget) => {
  const portal = usePortal(target);

  it('logs in with a session cookie and answers the current user with a token per cluster', async () => {
    const b = new Browser(portal.app);
    const res = await b.login('demo');
    expect(res.statusCode).toBe(200);
    const session = res.cookies.find((c) => c.name === 'hpc_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session.secure).toBeFalsy();
    const csrf = res.cookies.find((c) => c.name === 'csrf')!;
    expect(csrf.httpOnly).toBeFalsy();
    const body = res.json();
    expect(body).toMatchObject({ code: '0', data: { userInfo: { username: 'demo', role: 'user' } } });
    expect(body.data.session.csrfToken).toBe(csrf.value);

    const info = dataOf<CurrentUser>(await b.get('/api/user/info'));
    expect(info.tokenList.map((t) => t.clusterId)).toEqual(['11250', '11251']);

    const jwks = (await b.get('/api/auth/jwks.json')).json<JSONWebKeySet>();
    const verifier = createClusterTokenVerifier({ clusterId: '11250', jwks: () => jwks });
    const claims = await verifier.verify(info.tokenList[0]!.token);
    expect(claims).toMatchObject({
      sub: String(info.id),
      aud: '11250',
      cun: 'demo',
      home: '/public/home/demo',
      paths: ['/public/share/demo-group'],
      st: 'Normal',
    });
    expect(createLocalJWKSet(jwks)).toBeTypeOf('function');
  });

  it('answers 401 with code "401" to an anonymous caller', async () => {
    const anon = new Browser(portal.app);
    const res = await anon.get('/api/user/info');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: '401' });
    expect((await anon.post('/api/auth/refresh')).statusCode).toBe(401);
    const pw = await anon.post('/api/user/password', {
      json: { oldPassword: 'x', newPassword: 'long-enough-1' },
    });
    expect(pw.statusCode).toBe(401);
    // Logging out without a session is harmless.
    expect((await anon.post('/api/auth/logout')).statusCode).toBe(200);
    // Public: what the login page needs, and the keys.
    expect((await anon.get('/api/auth/config')).json().data).toMatchObject({
      sso: false,
      csrfCookie: 'csrf',
      csrfHeader: 'x-csrf-token',
      requestTimeHeader: 'x-request-token',
    });
    expect((await anon.get('/api/auth/jwks.json')).json<JSONWebKeySet>().keys[0]).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
    });
  });

  it('gives a manager the manager role and no cluster tokens without compute users', async () => {
    const admin = await loggedIn(portal.app, 'admin');
    const me = dataOf<CurrentUser>(await admin.get('/api/user/info'));
    expect(me.userInfo.role).toBe('manager');
    expect(me.tokenList).toEqual([]);
    expect(dataOf<unknown[]>(await admin.get('/api/computeuser/queryClusterUserBaseInfo.action'))).toEqual(
      [],
    );
  });

  it('changes the own password after checking the old one', async () => {
    const b = await loggedIn(portal.app, 'lisi');
    const wrong = await b.post('/api/user/password', {
      json: { oldPassword: 'not-it', newPassword: 'lisi-new-pass' },
    });
    expect(wrong.json().code).toBe('LOGIN_FAILED');
    const short = await b.post('/api/user/password', {
      json: { oldPassword: 'demo-portal-2026', newPassword: 'x' },
    });
    expect(short.json().code).toBe('1004');
    const done = await b.post('/api/user/password', {
      json: { oldPassword: 'demo-portal-2026', newPassword: 'lisi-new-pass' },
    });
    expect(done.json().code).toBe('0');
    expect((await new Browser(portal.app).login('lisi', 'lisi-new-pass')).statusCode).toBe(200);
  });

  it("counts a password change's wrong old passwords as failed logins: a burst is throttled, not all checked", async () => {
    // admin, from an address of its own: the tests after this one log in as the others from the default one.
    const b = await loggedIn(portal.app, 'admin', '10.7.7.7');
    const tries = await Promise.all(
      Array.from({ length: 10 }, () =>
        b.post('/api/user/password', {
          json: { oldPassword: 'guess-guess', newPassword: 'wangwu-new-pass' },
        }),
      ),
    );
    const codes = tries.map((r) => r.json<{ code: string }>().code);
    // The login's limit per user name (5): the rest refused before any argon2 check.
    expect(codes.filter((c) => c === 'LOGIN_FAILED').length).toBe(5);
    expect(codes.filter((c) => c === 'LOGIN_THROTTLED').length).toBe(5);
  });

  it('refuses a wrong password with LOGIN_FAILED, the same as an unknown user', async () => {
    const b = new Browser(portal.app, '10.9.9.9');
    const wrong = await b.login('demo', 'nope-nope');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'LOGIN_FAILED' });
    expect((await b.login('nobody', 'nope-nope')).json()).toMatchObject({ code: 'LOGIN_FAILED' });
  });

  it('logs out: the session is gone and the cookies are cleared', async () => {
    const b = await loggedIn(portal.app, 'wangwu');
    const out = await b.post('/api/auth/logout');
    expect(out.statusCode).toBe(200);
    expect(b.cookies.has('hpc_session')).toBe(false);
    expect((await b.get('/api/user/info')).statusCode).toBe(401);
  });
});
