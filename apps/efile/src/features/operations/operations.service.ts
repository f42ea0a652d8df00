import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { isUnder } from '@hpc/cluster-kit';
import type { Progress } from '../../fs/copy-tree';
import { errno } from '../../fs/errno';
import type { TransferItem } from '../../userfs/types';
import type { ShareRepository } from '../share';
import type { OperationsRepository } from './operations.repository';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { EfileText } from '../../messages';

const LOCK_TTL_MS = 10 * 60_000;
const TICK_MS = 500;
type Kind = 'copy' | 'move';
type Item = TransferItem;

/**
 * Copy and move as background operations (spec §4: one per user at a time, cancellable, with progress). The
 * per-user lock lives in the KvStore so it holds across instances. A copy is written under a hidden temp name and
 * renamed into place at the end, so a cancelled or failed copy never leaves a half-copied item under its name.
 */
export function operationsService(
  deps: EfileDeps,
  repo: OperationsRepository,
  shares: ShareRepository,
  log: FastifyBaseLogger,
) {
  const { userfs, kv } = deps;
  const running = new Map<string, AbortController>();
  const lockKey = (sub: string) => `op-lock:${sub}`;

  async function plan(user: EfileUser, paths: string[], targetPath: string, cover: boolean): Promise<Item[]> {
    const dest = await userfs.resolve(user, targetPath);
    if (!dest.stat?.isDir) throw new AppError(FileCodes.notAFolder);
    const items: Item[] = [];
    const conflicts: string[] = [];
    for (const p of paths) {
      const src = await userfs.resolve(user, p, { follow: false });
      const to = `${dest.clusterPath === '/' ? '' : dest.clusterPath}/${src.name}`;
      if (to === src.clusterPath) throw new AppError(FileCodes.sameSourceTarget);
      // Into itself: the real destination is inside the real source folder.
      if (src.stat?.isDir && isUnder(dest.host, src.host))
        throw new AppError(FileCodes.sameSourceTarget, EfileText.folderIntoItself);
      const dst = await userfs.resolve(user, to, { follow: false, mustExist: false });
      if (dst.stat && !cover) conflicts.push(dst.clusterPath);
      items.push({ src, dst });
    }
    if (conflicts.length > 0) {
      const allDirs = items
        .filter((i) => conflicts.includes(i.dst.clusterPath))
        .every((i) => i.dst.stat?.isDir);
      throw new AppError(allDirs ? FileCodes.sameNameDir : FileCodes.sameNameFile, undefined, {
        data: { conflicts },
      });
    }
    return items;
  }

  async function run(
    id: string,
    user: EfileUser,
    kind: Kind,
    items: Item[],
    cover: boolean,
    ac: AbortController,
  ) {
    const progress: Progress = { bytesDone: 0, filesDone: 0 };
    // The write of the totals, awaited before the final one so that it cannot land after it.
    const totals: Promise<void>[] = [];
    const tick = setInterval(() => {
      void (async () => {
        if (await repo.cancelRequested(id)) ac.abort();
        await repo.progress(
          id,
          { bytes_done: progress.bytesDone, files_done: progress.filesDone },
          deps.now(),
        );
        await kv.set(lockKey(user.sub), id, LOCK_TTL_MS);
      })().catch((err: unknown) => log.warn({ err }, 'operation progress update failed'));
    }, TICK_MS);
    try {
      // The files are copied or moved by the user file system (in unix mode, in the user's own worker), which
      // reports its progress here; the totals come first, once it has measured the selection.
      await userfs.transfer(
        user,
        { kind, items, cover, id },
        (p) => {
          progress.bytesDone = p.bytesDone;
          progress.filesDone = p.filesDone;
          if (p.bytesTotal !== undefined && totals.length === 0) {
            const write = repo
              .progress(id, { bytes_total: p.bytesTotal, files_total: p.filesTotal ?? 0 }, deps.now())
              .catch((err: unknown) => log.warn({ err }, 'operation progress update failed'));
            totals.push(write);
          }
        },
        ac.signal,
      );
      await Promise.all(totals);
      if (kind === 'move')
        // spec §5: moving a shared item (or a parent) makes its sharing invalid.
        for (const { src } of items) await shares.closeUnder(src.clusterPath, deps.now());
      await repo.progress(
        id,
        { status: 'done', bytes_done: progress.bytesDone, files_done: progress.filesDone },
        deps.now(),
      );
    } catch (e) {
      const cancelled = ac.signal.aborted;
      await repo.progress(
        id,
        {
          status: cancelled ? 'cancelled' : 'failed',
          error_code: cancelled
            ? null
            : isAppError(e)
              ? e.code
              : errno(e) === 'ENOSPC'
                ? FileCodes.noSpace
                : CommonCodes.unavailable,
          bytes_done: progress.bytesDone,
          files_done: progress.filesDone,
        },
        deps.now(),
      );
      if (!cancelled && !isAppError(e)) log.error({ err: e }, 'operation failed');
    } finally {
      clearInterval(tick);
      running.delete(id);
      await kv.del(lockKey(user.sub));
    }
  }

  return {
    async start(user: EfileUser, kind: Kind, paths: string[], targetPath: string, cover: boolean) {
      const id = crypto.randomBytes(16).toString('hex');
      if (!(await kv.setIfAbsent(lockKey(user.sub), id, LOCK_TTL_MS)))
        throw new AppError(FileCodes.operationLimit);
      let items: Item[];
      try {
        items = await plan(user, paths, targetPath, cover);
        const now = deps.now();
        await repo.insert({
          id,
          owner_sub: user.sub,
          kind,
          status: 'running',
          bytes_done: 0,
          bytes_total: 0,
          files_done: 0,
          files_total: 0,
          error_code: null,
          created_at: now,
          updated_at: now,
        });
      } catch (e) {
        await kv.del(lockKey(user.sub));
        throw e;
      }
      const ac = new AbortController();
      running.set(id, ac);
      void run(id, user, kind, items, cover, ac);
      return id;
    },

    async progress(user: EfileUser, id: string) {
      const r = await repo.get(id, user.sub);
      if (!r) throw new AppError(FileCodes.notFound, EfileText.noSuchOperation);
      return {
        operationId: r.id,
        kind: r.kind,
        status: r.status,
        bytesDone: Number(r.bytes_done),
        bytesTotal: Number(r.bytes_total),
        filesDone: r.files_done,
        filesTotal: r.files_total,
        errorCode: r.error_code,
      };
    },

    /** Cancels here at once when this instance runs it, else through the row the running instance polls. */
    async cancel(user: EfileUser, id: string) {
      if ((await repo.requestCancel(id, user.sub)) === 0)
        throw new AppError(FileCodes.notFound, EfileText.noSuchOperation);
      running.get(id)?.abort();
    },
  };
}
export type OperationsService = ReturnType<typeof operationsService>;
