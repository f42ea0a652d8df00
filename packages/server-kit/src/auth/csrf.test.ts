import { describe, expect, it } from 'vitest';
import { createServer } from '../fastify';
import { assertSameOrigin, csrfCheck, isStateChanging, safeEqual } from './csrf';

describe('csrf', () => {
  const build = async () => {
    const app = createServer({ logLevel: 'silent' });
    app.addHook(
      'onRequest',
      csrfCheck({
        applies: isStateChanging,
        // A "session" is any request with a cookie header, whose token is "t0k3n".
        expected: async (req) => (req.headers.cookie ? 't0k3n' : null),
      }),
    );
    app.post('/x', async () => ({ code: '0', msg: 'success', data: null }));
    app.get('/x', async () => ({ code: '0', msg: 'success', data: null }));
    app.post('/login', async (req) => {
      assertSameOrigin(req, []);
      return { code: '0', msg: 'success', data: null };
    });
    await app.ready();
    return app;
  };

  it('asks a session for the matching header on state-changing calls only', async () => {
    const app = await build();
    const cookie = 'sid=1';
    expect((await app.inject({ method: 'GET', url: '/x', headers: { cookie } })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'POST', url: '/x', headers: { cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'CSRF' });
    const wrong = await app.inject({
      method: 'POST',
      url: '/x',
      headers: { cookie, 'x-csrf-token': 't0k3m' },
    });
    expect(wrong.statusCode).toBe(403);
    const good = await app.inject({
      method: 'POST',
      url: '/x',
      headers: { cookie, 'x-csrf-token': 't0k3n' },
    });
    expect(good.statusCode).toBe(200);
    // No session: nothing to forge.
    expect((await app.inject({ method: 'POST', url: '/x' })).statusCode).toBe(200);
    await app.close();
  });

  it('refuses a login from a foreign origin or a cross-site fetch, and lets scripts without Origin through', async () => {
    const app = await build();
    const post = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/login', headers: { host: 'portal.test', ...headers } });
    expect((await post({ origin: 'http://portal.test' })).statusCode).toBe(200);
    expect((await post({})).statusCode).toBe(200);
    expect((await post({ origin: 'http://evil.test' })).json()).toMatchObject({ code: 'CSRF' });
    expect((await post({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    await app.close();
  });

  it('compares in constant time without throwing on different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
