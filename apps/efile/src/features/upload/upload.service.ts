import path from 'node:path';
import { chunkGeometryFault, chunkRange, CommonCodes, FileCodes, type ChunkParams } from '@hpc/contracts';
import { AppError, acquireLockWaiting, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { errno } from '../../fs/errno';
import { conflictError, fsError } from '../../fs/file-ops';
import { validateRelativePath } from '../../fs/names';
import type { FsScope, Info } from '../../userfs/types';
import { partialName, sessionId, type OpenPartial, type PartialCore, type PartialRow } from '../partial';
import { EfileText } from '../../messages';

const join = (dir: string, segs: string[]) => (dir === '/' ? '' : dir) + '/' + segs.join('/');

/**
 * An unfinished upload written in within this long is in progress: another upload to the same name is refused
 * while it is (spec §5: a same-name file already in the upload list forbids another upload). A session marks itself
 * alive at least once a minute while chunks arrive (writeChunk), so this leaves room for one slow chunk; one quiet
 * for longer counts as abandoned and a new upload of the name replaces it.
 */
const LIVE_MS = 3 * 60_000;
/** How long beginning an upload may hold its target's lock, and how long another waits for it. */
const BEGIN_LOCK_MS = 30_000;
const BEGIN_WAIT_MS = 15_000;

/** Where a chunk goes: the session row, the target and the partial file beside it. */
interface Prepared {
  id: string;
  target: Info;
  targetPath: string;
  partialHost: string;
}

/** What a chunk request keeps of its upload while the partial is open. */
interface UploadState {
  prep: Prepared;
  /**
   * Chunk numbers stored, as this process knows them: loaded from the database when the entry opens, then kept up to
   * date by its own writes. Test GETs answer from it; another instance's chunks unknown here are only sent again.
   */
  stored: Set<number>;
  /** When the session's updated_at was last refreshed (the sweep's liveness mark). */
  touchedAt: number;
  /**
   * The row's created_at when the partial was opened: a row of the same id made again since (the upload replaced
   * or cancelled, then begun anew) is another partial file, which this entry's descriptor does not reach.
   */
  generation: number;
}

/**
 * Chunked uploads (simple-uploader.js protocol, DESIGN §8): every chunk is written at its offset into one hidden
 * partial file `.<name>.<id>.efile-part` beside the target; when the last chunk is stored the file is fsynced once
 * and renamed into place (never over an existing item unless `overwrite`). Sessions live in the database, so an
 * upload resumes after a browser reload or a server restart from the chunks already stored. This is the chunk
 * protocol's front door to the partial-file core (features/partial): the session rows, the open partials, the
 * finalize lock and the sweep are the core's; the geometry, the test GET and merge are this protocol's.
 */
export function uploadService(deps: EfileDeps, core: PartialCore) {
  const { userfs, config } = deps;
  const { repo } = core;
  const open = core.handles<UploadState>();
  /**
   * The shape of a chunk request that an open upload may serve without a new path check: the same user with the
   * same roots (a changed grant is a new key), target, identifier, geometry and overwrite choice.
   */
  const requestKey = (user: EfileUser, p: ChunkParams) =>
    [user.sub, user.roots.join('\u0001'), p.path, p.relativePath, p.identifier, p.totalSize, p.chunkSize]
      .concat(p.overwrite ? 'o' : '')
      .join('\0');

  function checkGeometry(p: ChunkParams) {
    if (p.folderFileCount !== undefined && p.folderFileCount > config.EFILE_FOLDER_FILE_LIMIT) {
      throw new AppError(
        FileCodes.downloadLimit,
        EfileText.folderTooManyFiles(config.EFILE_FOLDER_FILE_LIMIT),
      );
    }
    if (p.currentChunkSize > config.EFILE_MAX_CHUNK_SIZE)
      throw new AppError(CommonCodes.tooLarge, EfileText.chunkTooLarge);
    // The geometry every client cuts (the shared chunk protocol): floor(size / chunkSize) chunks, remainder last.
    const fault = chunkGeometryFault(p);
    if (fault === 'numbers') throw new AppError(CommonCodes.invalidInput, EfileText.inconsistentChunkNumbers);
    if (fault === 'size') throw new AppError(CommonCodes.invalidInput, EfileText.inconsistentChunkSize);
    return chunkRange(p.chunkNumber, p.totalSize, p.chunkSize).start;
  }

  /** Resolves the target (creating the folders of a folder upload when `create`). */
  async function prepare(user: EfileUser, p: ChunkParams, create: boolean): Promise<Prepared | null> {
    const segs = validateRelativePath(p.relativePath);
    const base = await userfs.resolve(user, p.path);
    if (!base.stat?.isDir) throw new AppError(FileCodes.notAFolder);
    for (let i = 1; i < segs.length; i++) {
      const sub = join(base.clusterPath, segs.slice(0, i));
      if (create) await userfs.ensureDir(user, sub);
      else {
        const dir = await userfs.resolve(user, sub, { mustExist: false });
        if (dir.stat && !dir.stat.isDir)
          throw new AppError(FileCodes.notAFolder, EfileText.isNotAFolder(dir.clusterPath));
        if (!dir.stat) return null;
      }
    }
    const targetPath = join(base.clusterPath, segs);
    const target = await userfs.resolve(user, targetPath, { follow: false, mustExist: false });
    const id = sessionId(user.sub, targetPath, p.identifier);
    return {
      id,
      target,
      targetPath,
      partialHost: path.join(target.parentHost, partialName(target.name, id)),
    };
  }

  const removePartial = (scope: FsScope, id: string, partialHost: string) =>
    core.discard({ id, status: 'active', partial_host: partialHost, owner_cun: scope.cun }, scope, true);

  /**
   * fsync once, then rename into place; "1021" (the partial kept for a retry) when the name is taken. 'busy' while
   * another request finalizes it, or while the database does not yet hold every chunk.
   */
  async function finalize(user: EfileUser, row: PartialRow, overwrite: boolean): Promise<'done' | 'busy'> {
    const lock = await core.lock('chunk', row.id);
    if (!lock) return 'busy';
    try {
      const fresh = await repo.get('chunk', row.id);
      if (!fresh || fresh.status === 'done') return 'done';
      if ((await repo.countPieces(row.id)) !== row.total_pieces) return 'busy';
      open.evict(row.id);
      // The user file system re-resolves the target: the folder must still be where it was when the upload
      // began, and the partial is renamed into place (over a file only with overwrite).
      // A name taken meanwhile ("1021"): the session and its partial stay, every chunk stored, so that a retry with
      // overwrite finalizes at once; the sweep removes them if nobody retries.
      await userfs.finalizePartial(user, {
        target: row.target,
        partialName: partialName(row.target.slice(row.target.lastIndexOf('/') + 1), row.id),
        expectedPartial: row.partial_host,
        size: Number(row.size),
        overwrite,
      });
      await repo.markDone(row.id, deps.now());
      return 'done';
    } finally {
      await lock.release();
    }
  }

  /**
   * Beginning an upload of one target, one request at a time across every instance (a lock in the shared store):
   * the first chunks of two uploads to one name arrive together, and each removed the other's session between its
   * look and its row, so neither upload survived (a chunk then met no session: a 500) and a partial stayed behind.
   */
  const targetLock = (user: EfileUser, targetPath: string) =>
    acquireLockWaiting(deps.kv, `upload-begin:${user.sub}:${targetPath}`, {
      ttlMs: BEGIN_LOCK_MS,
      waitMs: BEGIN_WAIT_MS,
      busy: () => new AppError(CommonCodes.unavailable, EfileText.uploadBeingBegun),
    });

  /**
   * The first chunk request of an upload (in this process): full path check, conflict check, the session row, and
   * the partial file opened (O_NOFOLLOW, no O_TRUNC: other chunks live in the same file), under the target's lock.
   * Returns a function registering the open partial under the request's key.
   */
  async function begin(user: EfileUser, p: ChunkParams): Promise<(key: string) => OpenPartial<UploadState>> {
    const prep = (await prepare(user, p, true))!;
    const lock = await targetLock(user, prep.targetPath);
    try {
      return await beginLocked(user, p, prep);
    } finally {
      await lock.release();
    }
  }

  async function beginLocked(
    user: EfileUser,
    p: ChunkParams,
    prep: Prepared,
  ): Promise<(key: string) => OpenPartial<UploadState>> {
    let existing = await repo.get('chunk', prep.id);
    if (existing?.status === 'done') {
      // The identifier is only size + path (spec §3), so a finished session with it says nothing about these bytes:
      // the same-size file edited and uploaded again with overwrite must be written, not reported as stored. Every
      // chunk of the finished upload was written before it was finalized, so this is a new upload; the finished
      // row goes (only while it is still finished: a concurrent chunk may have begun the new one already). The price:
      // a client that lost the answer of an upload's last chunk and sends it again starts over (it sees 1021 or a
      // failed merge, never a wrong file).
      await repo.removeIfDone(prep.id);
      existing = await repo.get('chunk', prep.id);
    }
    const now = deps.now();
    // Another identifier for the same target: while that upload is in progress this one is refused (it would
    // otherwise remove the other's session and partial under its running chunks); an abandoned one is replaced.
    const others = existing
      ? []
      : (await repo.activeForTarget('chunk', user.sub, prep.targetPath)).filter((o) => o.id !== prep.id);
    if (others.some((o) => Number(o.updated_at) > now - LIVE_MS))
      throw new AppError(FileCodes.sameNameFile, EfileText.uploadInProgress);
    // The target looked at again, under the lock and after the other uploads: one that held the name and has
    // finished since renamed its file into place before its session stopped being active, so the file shows here.
    prep.target = await userfs.resolve(user, prep.targetPath, { follow: false, mustExist: false });
    if (prep.target.stat && (!p.overwrite || prep.target.stat.isDir)) {
      throw conflictError(prep.target.stat.isDir);
    }
    if (!existing) {
      for (const old of others) await removePartial(user, old.id, old.partial_host);
      // Pieces recorded for this id by a chunk of an earlier session of it that ended under that chunk: they would
      // count as stored for this new partial, which does not hold their bytes.
      await repo.forgetPieces(prep.id);
      await core.openSession({
        id: prep.id,
        kind: 'chunk',
        owner_sub: user.sub,
        owner_cun: user.cun,
        target: prep.targetPath,
        identifier: p.identifier,
        size: p.totalSize,
        piece_size: p.chunkSize,
        total_pieces: p.totalChunks,
        partial_host: prep.partialHost,
        // The chunk requests carry the overwrite choice; the row does not need it.
        overwrite: 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
    }
    const fh = await userfs.openPartial(user, prep.partialHost);
    // A resumed session counts as alive from its last mark; writeChunk refreshes it once that is a minute old.
    const touchedAt = existing ? Number(existing.updated_at) : now;
    const generation = existing ? Number(existing.created_at) : now;
    const stored = new Set(existing ? await repo.pieces(prep.id) : []);
    return (key) => open.adopt(key, prep.id, fh, { prep, stored, touchedAt, generation });
  }

  return {
    close: () => open.closeAll(),
    checkGeometry,

    /** The test GET: true when the chunk is stored (200), false when it must be sent (204). */
    async testChunk(user: EfileUser, p: ChunkParams): Promise<boolean> {
      checkGeometry(p);
      const known = open.peek(requestKey(user, p));
      if (known) return known.state.stored.has(p.chunkNumber);
      const prep = await prepare(user, p, false);
      if (!prep) return false;
      if (prep.target.stat && !p.overwrite) throw conflictError(prep.target.stat.isDir);
      // A finished session stores nothing for a new upload: see begin().
      const row = await repo.get('chunk', prep.id);
      return row?.status === 'active' && (await repo.hasPiece(row.id, p.chunkNumber));
    },

    /** Writes one chunk at its offset; finalizes when every chunk is stored. */
    async writeChunk(user: EfileUser, p: ChunkParams, data: AsyncIterable<Buffer>) {
      const offset = checkGeometry(p);
      const key = requestKey(user, p);
      let entry = open.acquire(key);
      if (!entry) {
        entry = (await begin(user, p))(key);
      }
      const { id, state } = entry;
      const { prep } = state;
      try {
        // Not serialized per file: the chunks in flight write at once and the kernel orders them on the inode's
        // lock. Queueing them here instead (tried) put a thread-pool round trip through the busy main thread between
        // writes, and uploads ran ~1.6x slower on 2 shared cores.
        await entry.fh.write(data, offset);
      } catch (e) {
        const code = isAppError(e) ? e.code : errno(e);
        if (code === 'ENOSPC' || code === 'EDQUOT' || code === FileCodes.noSpace) {
          await removePartial(user, id, prep.partialHost);
          throw new AppError(FileCodes.noSpace);
        }
        // An offset past what the file system can hold (a chunk at 17 TiB on ext4): this upload cannot succeed.
        if (code === 'EFBIG' || code === 'EOVERFLOW' || code === 'EINVAL' || code === CommonCodes.tooLarge) {
          await removePartial(user, id, prep.partialHost);
          throw new AppError(CommonCodes.tooLarge, EfileText.beyondFileSystem);
        }
        if (isAppError(e)) throw e;
        fsError(e);
      } finally {
        open.release(entry);
      }
      // The session may have ended while the chunk was written: cancelled (deletePartial), swept, or replaced as
      // abandoned on another instance, its partial removed. The bytes went into a file nobody will finalize: they
      // are not recorded (a later session of this id would take them as stored), the entry is dropped, and the
      // client is told; the record itself is made only while the session is still this one (addChunkOf).
      const row = await repo.get('chunk', id);
      if (!row || Number(row.created_at) !== state.generation) {
        open.evict(id);
        throw new AppError(FileCodes.notFound, EfileText.uploadEnded);
      }
      // A chunk sent again after its upload was finalized (the client lost the answer): nothing to add.
      if (row.status === 'done')
        return { stored: p.totalChunks, totalChunks: p.totalChunks, complete: true, path: prep.targetPath };
      // updated_at only tells the sweep (hours) and a competing upload (LIVE_MS) that the upload is alive:
      // refreshing it once a minute is enough, and saves an UPDATE per chunk.
      const now = deps.now();
      const touch = now - state.touchedAt > 60_000;
      if (touch) state.touchedAt = now;
      if (!(await repo.addChunkOf(id, state.generation, p.chunkNumber))) {
        open.evict(id);
        throw new AppError(FileCodes.notFound, EfileText.uploadEnded);
      }
      if (touch) await repo.touch(id, now);
      state.stored.add(p.chunkNumber);
      // Complete as far as this process knows; finalize confirms with the database. Chunks spread over several
      // instances leave each with a part: then no chunk answer says complete and the client's merge call finishes.
      const stored = state.stored.size;
      let complete = false;
      if (stored === p.totalChunks) complete = (await finalize(user, row, p.overwrite ?? false)) === 'done';
      return { stored, totalChunks: p.totalChunks, complete, path: prep.targetPath };
    },

    async chunkStatus(user: EfileUser, q: { path: string; relativePath: string; identifier: string }) {
      const targetPath = join(
        (await userfs.resolve(user, q.path)).clusterPath,
        validateRelativePath(q.relativePath),
      );
      const row = await repo.get('chunk', sessionId(user.sub, targetPath, q.identifier));
      if (!row) return { stored: [], totalChunks: 0, complete: false };
      if (row.status === 'done') return { stored: [], totalChunks: row.total_pieces, complete: true };
      return { stored: await repo.pieces(row.id), totalChunks: row.total_pieces, complete: false };
    },

    /** Idempotent: finalizes a complete upload, or confirms one already finalized. */
    async merge(
      user: EfileUser,
      q: { path: string; relativePath: string; identifier: string; overwrite?: boolean },
    ) {
      const targetPath = join(
        (await userfs.resolve(user, q.path)).clusterPath,
        validateRelativePath(q.relativePath),
      );
      const row = await repo.get('chunk', sessionId(user.sub, targetPath, q.identifier));
      if (!row) throw new AppError(FileCodes.notFound, EfileText.noSuchUpload);
      if (row.status !== 'done') {
        if ((await repo.countPieces(row.id)) !== row.total_pieces)
          throw new AppError(CommonCodes.incompleteParams, EfileText.chunksMissing);
        if ((await finalize(user, row, q.overwrite ?? false)) === 'busy')
          throw new AppError(CommonCodes.unavailable, EfileText.uploadBeingFinalized);
      }
      return { path: targetPath, size: Number(row.size) };
    },

    /** Cancels unfinished uploads of these final paths and deletes their partial files (spec §4). */
    async deletePartial(user: EfileUser, paths: string[]) {
      let deleted = 0;
      for (const p of paths) {
        const t = await userfs.resolve(user, p, { follow: false, mustExist: false });
        for (const row of await repo.activeForTarget('chunk', user.sub, t.clusterPath)) {
          await removePartial(user, row.id, path.join(t.parentHost, partialName(t.name, row.id)));
          deleted++;
        }
      }
      return deleted;
    },

    /** The core's one sweep (stale sessions of every kind, with their partials; see features/partial). */
    sweep: (now?: number) => core.sweep(now),
  };
}
export type UploadService = ReturnType<typeof uploadService>;
