import { acquireLock, type HeldLock } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { PartialKind } from './partial.repository';

/**
 * The shared-store key of a session's finalize lock (tests and the scaled test's keyspace watch see them). Each
 * front door keeps the key it had, so that during a rolling upgrade an instance of the old release and one of the
 * new take the same lock for the same session.
 */
export const finalizeLockKey = (kind: PartialKind, id: string) =>
  kind === 'range' ? `fastrans:finalize:${id}` : `finalize:${id}`;

/**
 * One finalize (fsync, rename into place, mark done) per session across every instance of the cluster: the pieces
 * of one session may arrive at several instances, and two of them may see the last piece or a finalize call at
 * once. The lock carries its owner's token and is renewed while the fsync runs, so a finalize of any length keeps
 * it; an instance killed mid-finalize leaves a lock that expires after EFILE_FINALIZE_LOCK_SECONDS, and a retry
 * (the client's merge or finalize call, on any instance) then finishes from the partial file and the piece rows,
 * which are still there.
 */
export function acquireFinalizeLock(
  deps: EfileDeps,
  kind: PartialKind,
  id: string,
): Promise<HeldLock | null> {
  return acquireLock(
    deps.kv,
    finalizeLockKey(kind, id),
    Math.round(deps.config.EFILE_FINALIZE_LOCK_SECONDS * 1000),
  );
}

/** True while some instance finalizes the session (a range is then not written: its bytes are being checked). */
export async function isFinalizing(deps: EfileDeps, kind: PartialKind, id: string): Promise<boolean> {
  return !!(await deps.kv.get(finalizeLockKey(kind, id)));
}
