import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import type { Resolved } from '../../fs/path-resolver';
import { isUnder } from '../../fs/path-resolver';
import { copyTree, measure, type Progress } from '../../fs/copy-tree';
import { errno } from '../../fs/errno';
import { renameNoReplace } from '../../fs/file-ops';
import { removeTree } from '../../fs/safe-remove';
import { TEMP_SUFFIX, tempName } from '../../fs/names';
import type { ShareRepository } from '../share/share.repository';
import type { OperationsRepository } from './operations.repository';

const LOCK_TTL_MS = 10 * 60_000;
const TICK_MS = 500;
type Kind = 'copy' | 'move';
interface Item {
  src: Resolved;
  dst: Resolved;
}

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
  const { resolver, kv } = deps;
  const running = new Map<string, AbortController>();
  const lockKey = (sub: string) => `op-lock:${sub}`;

  async function plan(user: EfileUser, paths: string[], targetPath: string, cover: boolean): Promise<Item[]> {
    const dest = await resolver.resolve(user, targetPath);
    if (!dest.stat?.isDirectory()) throw new AppError('1022');
    const items: Item[] = [];
    const conflicts: string[] = [];
    for (const p of paths) {
      const src = await resolver.resolve(user, p, { follow: false });
      const to = `${dest.clusterPath === '/' ? '' : dest.clusterPath}/${src.name}`;
      if (to === src.clusterPath) throw new AppError('1507');
      // Into itself: the real destination is inside the real source folder.
      if (src.stat?.isDirectory() && isUnder(dest.host, src.host))
        throw new AppError('1507', 'A folder cannot go into itself');
      const dst = await resolver.resolve(user, to, { follow: false, mustExist: false });
      if (dst.stat && !cover) conflicts.push(dst.clusterPath);
      items.push({ src, dst });
    }
    if (conflicts.length > 0) {
      const allDirs = items
        .filter((i) => conflicts.includes(i.dst.clusterPath))
        .every((i) => i.dst.stat?.isDirectory());
      throw new AppError(allDirs ? '1023' : '1021', undefined, { data: { conflicts } });
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
    const totals = await measure(items.map((i) => i.src.host));
    await repo.progress(id, { bytes_total: totals.bytes, files_total: totals.files }, deps.now());
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
      for (const { src, dst } of items) {
        ac.signal.throwIfAborted();
        const isDir = !!src.stat?.isDirectory();
        if (cover && dst.stat) await removeTree(dst.host, { force: true });
        if (kind === 'move') {
          try {
            await renameNoReplace(src.host, dst.host, isDir);
            const m = await measure([dst.host]);
            progress.filesDone += m.files;
            progress.bytesDone += m.bytes;
            await shares.closeUnder(src.clusterPath, deps.now()); // spec §5: sharing becomes invalid
            continue;
          } catch (e) {
            // Across file systems rename(2) fails with EXDEV: fall through to copy, then remove the source.
            if (errno(e) !== 'EXDEV') throw e;
          }
        }
        // Copy (or a move across file systems): temp name, then one rename into place.
        const tmp = path.join(dst.parentHost, tempName(dst.name, TEMP_SUFFIX, id.slice(0, 12)));
        try {
          await copyTree(src.host, tmp, progress, ac.signal);
          await renameNoReplace(tmp, dst.host, isDir);
        } catch (e) {
          await removeTree(tmp, { force: true });
          throw e;
        }
        if (kind === 'move') {
          await removeTree(src.host, { force: true });
          await shares.closeUnder(src.clusterPath, deps.now()); // spec §5: sharing becomes invalid
        }
      }
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
          error_code: cancelled ? null : isAppError(e) ? e.code : errno(e) === 'ENOSPC' ? '1501' : '1001',
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
      if (!(await kv.setIfAbsent(lockKey(user.sub), id, LOCK_TTL_MS))) throw new AppError('OPERATION_LIMIT');
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
      if (!r) throw new AppError('1020', 'No such operation');
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
      if ((await repo.requestCancel(id, user.sub)) === 0) throw new AppError('1020', 'No such operation');
      running.get(id)?.abort();
    },
  };
}
export type OperationsService = ReturnType<typeof operationsService>;
