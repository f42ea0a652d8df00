import type { FastifyBaseLogger } from 'fastify';
import { refusalOf, type OwnerRightsLookup } from '@hpc/cluster-kit';
import { assertNotRevoked, type RevocationStore } from '@hpc/server-kit';
import type { ShellEndReason } from '@hpc/contracts';
import type { SessionManager, ShellSession } from './session-manager';

/** Why a session was ended, for the page (`reason`) and the log (`why`). */
export interface SessionRefusal {
  reason: Extract<ShellEndReason, 'revoked' | 'rights'>;
  why: string;
}

/**
 * Why a running session may no longer run: `revoked`, the portal ended the session it was opened from (logout,
 * password change, "sign out everywhere") or disabled the portal user (revocation store); `rights`, when the portal
 * can be asked, the account on the cluster is disabled or has ended, or the compute user changed. The page names
 * the two apart: the second is no sign-out and no act of the user's. `null`: it may. A portal that does not answer
 * is no reason to cut a working shell; the next look will tell.
 */
export async function refusalOfSession(
  s: ShellSession,
  revocations: RevocationStore,
  ownerRights: OwnerRightsLookup | null,
  now: number,
): Promise<SessionRefusal | null> {
  if (!s.credential) return null;
  try {
    await assertNotRevoked(revocations, s.credential.token, s.credential.claims);
  } catch (e) {
    return { reason: 'revoked', why: e instanceof Error ? e.message : 'revoked' };
  }
  if (!ownerRights) return null;
  let rights;
  try {
    rights = await ownerRights(s.owner.sub);
  } catch {
    return null;
  }
  const why = refusalOf(rights, s.owner.cun, now);
  if (why === 'disabled') return { reason: 'rights', why: 'The account is disabled' };
  if (why === 'expired') return { reason: 'rights', why: 'The account has ended' };
  if (why === 'no-user') return { reason: 'rights', why: 'The compute user is no longer yours' };
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
        const refused = await refusalOfSession(s, o.revocations, o.ownerRights, o.now());
        if (refused) {
          o.log.info({ event: 'eshell.revoked', session: s.id, user: s.owner.sub }, refused.why);
          s.end(refused.reason, refused.why);
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
