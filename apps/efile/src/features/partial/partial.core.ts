import crypto from 'node:crypto';
import path from 'node:path';
import { PortalCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { FsScope } from '../../userfs/types';
import { EfileText } from '../../messages';
import { acquireFinalizeLock, isFinalizing } from './finalize-lock';
import { openAllowance } from './open-allowance';
import { openPartials, type OpenPartials } from './open-partials';
import { partialRepository, type PartialKind, type PartialRow } from './partial.repository';

/** What removing a session needs of its row. */
export type SessionRef = Pick<PartialRow, 'id' | 'status' | 'partial_host' | 'owner_cun'>;

/**
 * The partial file, built once for both front doors (issue 24 §2): the browser's chunk upload (features/upload,
 * the chunk geometry of the spec's protocol) and fast transfer's SHA-checked ranges and batches
 * (features/fastrans). Here: the session rows and their pieces (`repo`), the open-handle registries, the
 * cluster-wide finalize lock, removing a session with its partial, and the one sweep (run under the cluster lease
 * by features/index.ts) of stale sessions of every kind and of the tar staging folders an efile crash leaves.
 * The protocol rules (geometry, digests, overwrite, home only) stay in the front doors.
 */
export function partialCore(deps: EfileDeps) {
  const { userfs, config } = deps;
  const repo = partialRepository(deps.db);
  const registries: OpenPartials<unknown>[] = [];
  const allowance = openAllowance((sub, limit) => repo.countOpen(sub, limit), config.EFILE_MAX_OPEN_UPLOADS);

  /** The partial's folder as the only root of its owner: what the sweep may touch as that user. */
  const ownerScope = (row: SessionRef, folderHost: string): FsScope => ({
    cun: row.owner_cun,
    roots: [deps.resolver.toCluster(folderHost)],
  });

  /** Closes the kept-open partial of session `id` in this process (each registry; their keys are distinct). */
  const evict = (id: string) => {
    for (const r of registries) r.evict(id);
  };

  /**
   * Removes a session with its partial file, as the user who wrote it: the caller's scope, or (the sweep, a row
   * found with no request behind it) the row's owner with the partial's folder as the only root. A row of an
   * older server names no user: in unix mode its partial then stays for the admin. Errors of the unlink are the
   * caller's only when it asks (`strict`: a chunk upload refused for a full disk reports what removing did).
   */
  async function discard(row: SessionRef, scope?: FsScope, strict = false) {
    evict(row.id);
    if (row.status === 'active' && row.partial_host) {
      const owner = scope ?? ownerScope(row, path.dirname(row.partial_host));
      const unlinked = userfs.unlink(owner, row.partial_host);
      await (strict ? unlinked : unlinked.catch(() => undefined));
    }
    await repo.remove(row.id);
  }

  return {
    repo,
    evict,
    discard,
    /** A registry of kept-open partials for one front door; `evict` and the sweep close its entries too. */
    handles<S>(): OpenPartials<S> {
      const r = openPartials<S>();
      registries.push(r);
      return r;
    },
    /**
     * Creates the row of a new upload session of either front door; `429` (nothing created) while its user has
     * `EFILE_MAX_OPEN_UPLOADS` open (open-allowance.ts).
     */
    async openSession(row: PartialRow & { kind: 'chunk' | 'range' }) {
      const made = await allowance.admit(row.owner_sub, () => repo.create(row).then(() => true));
      if (!made)
        throw new AppError(
          PortalCodes.tooManyRequests,
          EfileText.tooManyOpenUploads(config.EFILE_MAX_OPEN_UPLOADS),
          {
            data: { max: config.EFILE_MAX_OPEN_UPLOADS },
          },
        );
    },
    lock: (kind: PartialKind, id: string) => acquireFinalizeLock(deps, kind, id),
    isFinalizing: (kind: PartialKind, id: string) => isFinalizing(deps, kind, id),

    /**
     * Records a tar extraction into the folder `folder` (by `scope`'s user) while it runs: if efile dies before the
     * extraction's own clean-up, the row stays and tells the sweep in which folder a staging folder may be left.
     * The caller's folder is `folder` resolved for the owner; the record ends with `end` (call it however the
     * extraction ended: it removed its staging folder itself).
     */
    async stage(owner: { sub: string; cun: string }, folder: { clusterPath: string; host: string }) {
      const id = crypto.randomBytes(20).toString('hex');
      const now = deps.now();
      await repo.create({
        id,
        kind: 'tar',
        owner_sub: owner.sub,
        owner_cun: owner.cun,
        target: folder.clusterPath,
        identifier: '',
        size: 0,
        piece_size: 0,
        total_pieces: 0,
        partial_host: folder.host,
        overwrite: 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
      return () => repo.remove(id);
    },

    /**
     * The one sweep, run by one instance of the cluster per interval (the lease, features/index.ts): sessions of
     * every kind idle for longer than EFILE_PARTIAL_TTL_HOURS go with their partial files (done rows too: they only
     * answered a restarted client), and a stale extraction's folder is cleared of the staging folders nobody wrote
     * in for as long (a live extraction in the same folder writes into its own). Everything as the row's user, through
     * the user file system (their worker in unix mode). Returns the sessions removed.
     */
    async sweep(now = deps.now()) {
      const cutoff = now - config.EFILE_PARTIAL_TTL_HOURS * 3600_000;
      let n = 0;
      for (const row of await repo.idleBefore(cutoff)) {
        if (row.kind === 'tar') {
          await userfs
            .sweepStaging(ownerScope(row, row.partial_host), row.partial_host, cutoff)
            .catch(() => undefined);
          await repo.remove(row.id);
        } else await discard(row);
        n++;
      }
      return n;
    },

    close() {
      for (const r of registries) r.closeAll();
    },
  };
}
export type PartialCore = ReturnType<typeof partialCore>;
