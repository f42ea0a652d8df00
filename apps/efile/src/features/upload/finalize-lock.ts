import { acquireLock, type HeldLock } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';

/** The shared-store key of an upload's finalize lock (tests watch it). */
export const finalizeLockKey = (uploadId: string) => `finalize:${uploadId}`;

/**
 * One finalize (fsync, rename into place, mark done) per upload across every instance of the cluster: chunks of one
 * upload may arrive at several instances, and two of them may see the last chunk or a merge call at once. The lock
 * carries its owner's token and is renewed while the fsync runs, so a finalize of any length keeps it; an instance
 * killed mid-finalize leaves a lock that expires after EFILE_FINALIZE_LOCK_SECONDS, and a retry (the client's merge
 * call, on any instance) then finishes from the partial file and the chunk rows, which are still there.
 */
export function acquireFinalizeLock(deps: EfileDeps, uploadId: string): Promise<HeldLock | null> {
  return acquireLock(
    deps.kv,
    finalizeLockKey(uploadId),
    Math.round(deps.config.EFILE_FINALIZE_LOCK_SECONDS * 1000),
  );
}
