import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_TOKEN_ISSUER } from '@hpc/contracts';
import { CLUSTER, makeHarness, type Harness } from '../efile.test-fixture';

/** Issue 10 §2.6: a validly signed cluster token must not live longer than the cap, whoever signed it. */
describe('efile caps the lifetime of cluster tokens on its side', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await makeHarness();
  });
  afterAll(() => h.close());

  const sign = (iat: number | null, exp: number) => {
    const jwt = new SignJWT({
      cun: 'demo',
      home: '/public/home/demo',
      paths: [],
      st: 'Normal',
      exp_acct: null,
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1', typ: 'JWT' })
      .setIssuer(CLUSTER_TOKEN_ISSUER)
      .setSubject('u-demo')
      .setAudience(CLUSTER)
      .setExpirationTime(exp);
    if (iat !== null) jwt.setIssuedAt(iat);
    return jwt.sign(h.keys.privateKey);
  };
  const list = async (token: string) =>
    (
      await h.app.inject({ method: 'GET', url: '/list.action?path=/public/home/demo', headers: { token } })
    ).json<{ code: string }>().code;

  it('refuses a validly signed token with a 10-year lifetime, or without an issue time', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await list(await sign(now, now + 3600))).toBe('0');
    expect(await list(await sign(now, now + 10 * 365 * 86400))).toBe('1406');
    // Back-dated issue time, still 10 years ahead: the remaining life is capped too.
    expect(await list(await sign(now - 3600, now + 10 * 365 * 86400))).toBe('1406');
    expect(await list(await sign(null, now + 3600))).toBe('1406');
    expect(await list(await sign(now, now + 12 * 3600))).toBe('0');
  });
});
