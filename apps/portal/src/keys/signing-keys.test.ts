import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClusterTokenVerifier, signClusterToken } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
import { createSigningKey, openSigningKeys, retireSigningKey } from './signing-keys';

const claims = {
  sub: '1',
  aud: '11250',
  cun: 'demo',
  home: '/public/home/demo',
  paths: [],
  st: 'Normal' as const,
  exp_acct: null,
};

describe('signing keys', () => {
  const tmp = makeTempDir();
  afterAll(() => tmp.cleanup());

  it('creates a key on first open (0600 in a 0700 folder) and picks up a rotation within a minute', async () => {
    const dir = path.join(tmp.dir, 'keys');
    let t = 0;
    const keys = openSigningKeys(dir, () => t);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const first = keys.active();
    expect(keys.jwks().keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: first.kid, alg: 'EdDSA', use: 'sig' },
    ]);
    const oldToken = await signClusterToken(first.privateKey, first.kid, claims, 60);

    const kid = createSigningKey(dir, new Date(Date.now() + 1000));
    expect(keys.active().kid).toBe(first.kid);
    t += 61_000;
    expect(keys.active().kid).toBe(kid);
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([first.kid, kid]);

    // Tokens of the old key verify until it is retired.
    const verifier = createClusterTokenVerifier({ clusterId: '11250', jwks: () => keys.jwks() });
    await expect(verifier.verify(oldToken)).resolves.toMatchObject({ cun: 'demo' });
    retireSigningKey(dir, first.kid);
    keys.reload();
    await expect(verifier.verify(oldToken)).rejects.toMatchObject({ code: '1406' });
    const next = keys.active();
    await expect(
      verifier.verify(await signClusterToken(next.privateKey, next.kid, claims, 60)),
    ).resolves.toBeTruthy();
  });
});
