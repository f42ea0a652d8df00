import { describe, expect, it } from 'vitest';
import { EshellRoutes, FASTRANS_TOKEN_USE, type ClusterTokenClaims, type OwnerRights } from '@hpc/contracts';
import { signTestToken } from '@hpc/server-kit/testing';
import { CLUSTER, useNodelessEshell } from '../eshell.test-fixture';

/**
 * The fast-transfer client's day token (`use: "fastrans"`, no session, up to 24 h) reaches the home through efile
 * only (docs/FASTRANS.md): a shell reaches every folder of the Unix user, so E-Shell refuses it as a token it cannot
 * use ("1406") and issues no terminal ticket on it. No sshd is needed: the ticket is refused before any node.
 */
describe('E-Shell and the day token', () => {
  const rights: OwnerRights = {
    cun: 'demo',
    home: '/public/home/demo',
    paths: [],
    st: 'Normal',
    exp_acct: null,
  };
  // The portal knows the user: the day token's rights of the moment would be granted.
  const harness = useNodelessEshell('eshell-day-token-', {
    homes: { demo: rights.home },
    ownerRights: async (sub) => (sub === '100' ? rights : null),
  });

  const token = (claims: Partial<ClusterTokenClaims>) =>
    signTestToken(harness().keys.privateKey, { aud: CLUSTER, sub: '100', home: rights.home, ...claims });

  it('refuses a terminal ticket on a day token with "1406"; a session token of the same user gets one', async () => {
    const session = await harness().ticket(await token({ sid: 's-demo' }), {});
    expect(session.code).toBe('0');
    expect(session.data.ticket).toBeTruthy();
    const day = await harness().ticket(await token({ use: FASTRANS_TOKEN_USE }), {});
    expect(day.code).toBe('1406');
    expect(day.data ?? null).toBeNull();
    // Nor may it list the user's shells.
    const list = await harness().call(
      await token({ use: FASTRANS_TOKEN_USE }),
      'GET',
      EshellRoutes.sessions.path,
    );
    expect(list.code).toBe('1406');
  });
});
