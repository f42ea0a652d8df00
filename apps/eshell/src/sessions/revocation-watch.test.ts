import { describe, expect, it } from 'vitest';
import type { OwnerRights } from '@hpc/contracts';
import { createKv, createRevocationStore } from '@hpc/server-kit';
import { refusalOfSession } from './revocation-watch';
import type { ShellSession } from './session-manager';

const NOW = Date.UTC(2026, 10, 30);
const session = (sid: string) =>
  ({
    owner: { sub: 'u1', cun: 'alice' },
    credential: { token: 'not-read', claims: { sub: 'u1', sid, iat: Math.floor(NOW / 1000) - 60 } },
  }) as unknown as ShellSession;
const rights = (r: Partial<OwnerRights>): OwnerRights => ({
  cun: 'alice',
  home: '/home/alice',
  paths: [],
  st: 'Normal',
  exp_acct: null,
  ...r,
});

describe('why a running shell is ended', () => {
  it('tells a sign-out apart from the rights on the cluster', async () => {
    const store = createRevocationStore(createKv(undefined, 'test:'));
    const ask = (s: ShellSession, r: OwnerRights | null) => refusalOfSession(s, store, async () => r, NOW);

    expect(await ask(session('s1'), rights({}))).toBeNull();
    expect(await ask(session('s1'), rights({ st: 'Disable' }))).toMatchObject({ reason: 'rights' });
    expect(await ask(session('s1'), rights({ exp_acct: NOW - 1 }))).toMatchObject({
      reason: 'rights',
      why: 'The account has ended',
    });
    expect(await ask(session('s1'), rights({ cun: 'bob' }))).toMatchObject({ reason: 'rights' });
    expect(await ask(session('s1'), null)).toMatchObject({ reason: 'rights' });

    // The portal session ended (a logout): revoked, whatever the rights say.
    await store.endSessions(['s1']);
    expect(await ask(session('s1'), rights({}))).toMatchObject({ reason: 'revoked' });
    // A portal that does not answer cuts nothing.
    expect(
      await refusalOfSession(session('s2'), store, () => Promise.reject(new Error('down')), NOW),
    ).toBeNull();
  });
});
