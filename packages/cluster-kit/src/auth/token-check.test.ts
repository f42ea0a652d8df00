import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FASTRANS_TOKEN_USE, type ClusterTokenClaims, type OwnerRights } from '@hpc/contracts';
import {
  createClusterTokenVerifier,
  createKv,
  createRevocationStore,
  createServer,
  signClusterToken,
  type AppServer,
} from '@hpc/server-kit';
import { createTokenCheck, registerTokenCheck } from './token-check';

/** The per-cluster token check as any service registers it: real keys, a real Fastify, the portal's revocation store. */
describe('the token check of a per-cluster service', () => {
  const revocations = createRevocationStore(createKv());
  const rights = new Map<string, OwnerRights | null>();
  let sign: (c?: Partial<ClusterTokenClaims>) => Promise<string>;
  let app: AppServer;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
    sign = (c = {}) =>
      signClusterToken(privateKey, 'k1', {
        sub: 'u1',
        aud: 'c1',
        cun: 'demo',
        home: '',
        paths: ['/public/share/p'],
        st: 'Normal',
        exp_acct: null,
        ...c,
      });
    const checkOf = (o: { acceptDayTokens?: boolean } = {}) =>
      createTokenCheck({
        verifier: createClusterTokenVerifier({ clusterId: 'c1', jwks: () => ({ keys: [jwk] }) }),
        homePattern: '/public/home/{user}',
        ownerRights: async (sub) => rights.get(sub) ?? null,
        revocations,
        ...o,
      });
    app = createServer({ logLevel: 'silent' });
    // As the job service and E-Shell register it: no day tokens.
    await app.register(async (scope) => {
      const auth = registerTokenCheck(scope, checkOf(), {
        isPublic: (req) => req.url === '/health',
        allowDisabled: (req) => req.url === '/whoami',
      });
      scope.get('/health', async () => ({ ok: true }));
      scope.get('/whoami', async (req) => auth.user(req));
      scope.get('/work', async (req) => auth.user(req));
    });
    // As efile has it: the fast-transfer client's day token too.
    await app.register(
      async (scope) => {
        const auth = registerTokenCheck(scope, checkOf({ acceptDayTokens: true }), {
          allowDisabled: (req) => req.url === '/efile/whoami',
        });
        scope.get('/whoami', async (req) => auth.user(req));
        scope.get('/work', async (req) => auth.user(req));
      },
      { prefix: '/efile' },
    );
  });
  afterAll(() => app?.close());

  const get = async (url: string, token?: string) =>
    (await app.inject({ method: 'GET', url, headers: token ? { token } : {} })).json<
      Record<string, unknown>
    >();

  it('gives the user of a token from the header only; public routes need none', async () => {
    const t = await sign();
    expect(await get('/work', t)).toEqual({
      sub: 'u1',
      cun: 'demo',
      home: '/public/home/demo',
      roots: ['/public/home/demo', '/public/share/p'],
      expAcct: null,
    });
    expect((await get(`/work?token=${t}`)).code).toBe('1406');
    expect((await get('/work', 'x.y.z')).code).toBe('1406');
    expect(await get('/health')).toEqual({ ok: true });
  });

  it('refuses a disabled account except where allowed', async () => {
    const t = await sign({ st: 'Disable' });
    expect((await get('/work', t)).code).toBe('1007');
    expect((await get('/whoami', t)).cun).toBe('demo');
  });

  it('asks the revocation store on every request, a cached token too, and refuses a revoked one', async () => {
    const t = await sign({ sub: 'u-rev', sid: 's-rev' });
    expect((await get('/work', t)).sub).toBe('u-rev');
    expect((await get('/work', t)).sub).toBe('u-rev'); // now from the verified-token cache
    await revocations.endSessions(['s-rev']);
    expect((await get('/work', t)).code).toBe('401');
    const u = await sign({ sub: 'u-dis' });
    expect((await get('/work', u)).sub).toBe('u-dis');
    await revocations.disableUser('u-dis', Date.now());
    expect((await get('/work', u)).code).toBe('1406');
  });

  it("a day token carries the rights of the moment: the portal's answer on every use", async () => {
    const t = await sign({ sub: 'u-day', use: FASTRANS_TOKEN_USE, paths: [] });
    rights.set('u-day', { cun: 'demo', home: '/h/demo', paths: ['/x'], st: 'Normal', exp_acct: null });
    // The home of the moment only: the folder granted besides (/x) is not the day token's (issue 24 §3.4).
    expect((await get('/efile/work', t)).roots).toEqual(['/h/demo']);
    // Not even when the token itself names one: a day token is minted with none.
    const named = await sign({ sub: 'u-day', use: FASTRANS_TOKEN_USE, paths: ['/x'] });
    expect((await get('/efile/work', named)).roots).toEqual(['/h/demo']);
    rights.set('u-day', { cun: 'other', home: '/h/o', paths: [], st: 'Normal', exp_acct: null });
    expect((await get('/efile/work', t)).code).toBe('1406');
    rights.set('u-day', { cun: 'demo', home: '/h/demo', paths: [], st: 'Disable', exp_acct: null });
    expect((await get('/efile/work', t)).code).toBe('1007');
  });

  it('refuses a day token ("1406") where the service did not opt into it: efile\'s alone', async () => {
    const t = await sign({ sub: 'u-day2', use: FASTRANS_TOKEN_USE, paths: [] });
    rights.set('u-day2', { cun: 'demo', home: '/h/demo', paths: [], st: 'Normal', exp_acct: null });
    expect((await get('/efile/work', t)).cun).toBe('demo');
    expect((await get('/work', t)).code).toBe('1406');
    // Not on the calls a disabled account may make either, and not a token of any other purpose.
    expect((await get('/whoami', t)).code).toBe('1406');
    expect((await get('/work', await sign({ sub: 'u-day2', use: 'other' }))).code).toBe('1406');
    // A session token of the same user is taken by both.
    const s = await sign({ sub: 'u-day2', sid: 's-day2' });
    expect((await get('/work', s)).cun).toBe('demo');
    expect((await get('/efile/work', s)).cun).toBe('demo');
  });
});
