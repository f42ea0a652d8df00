import type { FastifyBaseLogger } from 'fastify';
import { refusalOf, type OwnerRightsLookup } from '@hpc/cluster-kit';
import { assertNotRevoked, type RevocationStore } from '@hpc/server-kit';
import type { SessionManager, ShellSession } from './session-manager';

/**
 * Why a running session may no longer run: the portal ended the session it was opened from (logout, password change,
 * "sign out everywhere") or disabled the user (revocation store), or, when the portal can be asked, the cluster
 * account is disabled, expired or the compute user changed. `null`: it may. A portal that does not answer is no
 * reason to cut a working shell; the next look will tell.
 */
export async function refusalOfSession(
  s: ShellSession,
  revocations: RevocationStore,
  ownerRights: OwnerRightsLookup | null,
  now: number,
): Promise<string | null> {
  if (!s.credential) return null;
  try {
    await assertNotRevoked(revocations, s.credential.token, s.credential.claims);
  } catch (e) {
    return e instanceof Error ? e.message : 'revoked';
  }
  if (!ownerRights) return null;
  let rights;
  try {
    rights = await ownerRights(s.owner.sub);
  } catch {
    return null;
  }
  const why = refusalOf(rights, s.owner.cun, now);
  if (why === 'disabled' || why === 'expired') return 'The account is disabled';
  if (why === 'no-user') return 'The compute user is no longer yours';
  return null;
}

/** Looks at every running session every `everyMs` and ends the refused ones, with the reason the page shows. */
export function watchRevocations(o: {
  sessions: SessionManager;
  revocations: RevocationStore;
  ownerRights: OwnerRightsLookup | null;
  everyMs: number;
  now: () => number;
  log: FastifyBaseLogger;
}): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      for (const s of o.sessions.all()) {
        if (s.ended) continue;
        const why = await refusalOfSession(s, o.revocations, o.ownerRights, o.now());
        if (why) {
          o.log.info({ event: 'eshell.revoked', session: s.id, user: s.owner.sub }, why);
          s.end('revoked', why);
        }
      }
    })()
      .catch((e: unknown) => o.log.warn({ err: e }, 'eshell revocation check failed'))
      .finally(() => {
        busy = false;
      });
  }, o.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
