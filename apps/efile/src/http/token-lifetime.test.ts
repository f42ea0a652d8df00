import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_TOKEN_ISSUER, FASTRANS_TOKEN_USE } from '@hpc/contracts';
import { CLUSTER, DEMO_RIGHTS, makeHarness, type Harness } from '../efile.test-fixture';

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

  it("takes the fast-transfer day token's rights from the portal on every use, as a Linux command's", async () => {
    const day = await h.token({ use: FASTRANS_TOKEN_USE }, 24 * 3600);
    const twelve = await h.token({}, 12 * 3600);
    try {
      expect(await list(day)).toBe('0');
      // Disabled since the token was made: the day token stops at once; a plain session token carries its own
      // claims for its (shorter) life, as before.
      h.rights.set('u-demo', { ...DEMO_RIGHTS, st: 'Disable' });
      expect(await list(day)).toBe('1007');
      // Account ended, compute user changed, portal user gone.
      h.rights.set('u-demo', { ...DEMO_RIGHTS, exp_acct: Date.now() - 1000 });
      expect(await list(day)).toBe('1007');
      h.rights.set('u-demo', { ...DEMO_RIGHTS, cun: 'someone-else' });
      expect(await list(day)).toBe('1406');
      h.rights.set('u-demo', null);
      expect(await list(day)).toBe('1406');
      expect(await list(twelve)).toBe('0');
      // The roots are today's too: a home moved since the token was made is where the token now reaches.
      h.rights.set('u-demo', { ...DEMO_RIGHTS, home: '/public/home/other', paths: [] });
      expect(await list(day)).not.toBe('0');
    } finally {
      h.rights.delete('u-demo');
    }
    expect(await list(day)).toBe('0');
  });

  it('lets a day token reach the home only, not the folders granted besides (issue 24 §3.4)', async () => {
    const day = await h.token({ use: FASTRANS_TOKEN_USE, paths: [] }, 24 * 3600);
    const session = await h.token({}, 3600);
    const at = async (token: string, p: string) =>
      (
        await h.app.inject({
          method: 'GET',
          url: `/list.action?path=${encodeURIComponent(p)}`,
          headers: { token },
        })
      ).json<{ code: string }>().code;
    // The same user's session token reaches the granted folder; the day token gets "1030" there.
    expect(await at(session, '/public/share/proj')).toBe('0');
    expect(await at(day, '/public/share/proj')).toBe('1030');
    expect(await at(day, '/public/home/demo')).toBe('0');
  });
});
