import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CommonCodes,
  FileCodes,
  FastransRefusal,
  DIGEST_RANGE_MAX,
  TarWriter,
  WANT_CONTENT_DIGEST,
  contentDigest,
  localisedErrorMessage,
  tarPack,
  type TransferBeginBody,
  type TransferFileRef,
  type TransferFileStatus,
  type TransferSameBody,
} from '@hpc/contracts';
import { AppError, acquireLock, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { assertSegmentLength, isUnder, normalizeClusterPath } from '@hpc/cluster-kit';
import { PARTIAL_SUFFIX, tempName, validateName, validateRelativePath } from '../../fs/names';
import { RangeBudget, giveRangeBuffer, takeRangeBuffer } from '../../fs/block-pool';
import { readTar, readTarWhole, WHOLE_TAR_MAX } from '../../fs/tar-extract';
import { parseRange, sendFile } from '../../http/file-send';
import type { FsScope, Info } from '../../userfs/types';
import { partialName, sessionId, type PartialCore, type PartialRow } from '../partial';
import { EfileText } from '../../messages';

/** Files of a batch stored at once, and the size up to which a file of a batch is read into memory first. */
const POOL = 64;
const SMALL = 1024 * 1024;
/** Files of a download batch read at once (each at most SMALL: the batch's memory bound), see readBatch. */
const READ_AHEAD = 32;
/**
 * The manifest's lines go out in pieces of about this many characters, not one write per line: 10,000 lines were
 * 10,000 chunks of the chunked answer, and the manifest of 10,000 files took 600 ms against 400 ms in pieces.
 */
const MANIFEST_PIECE = 32 * 1024;

/** Folders checked within one call, by cluster path (see `folder`). */
type Folders = Map<string, Promise<Info>>;

/** The first entry of an upload batch and the last of a download batch: `{ files: { rel: { sha256, identifier } } }`. */
export const MANIFEST_NAME = '.fastrans-manifest.json';

/**
 * How long a range's writer may go without renewing its lock (renewed every third of it while the writer lives).
 * A writer that lost it, or stalled for half of it, stops before its next write and records nothing.
 */
const RANGE_LOCK_MS = 60_000;

const join = (dir: string, rel: string) => (dir === '/' ? '' : dir) + '/' + rel;

/** The most missing ranges a finalize names (the client sends those, then asks again). */
export const MAX_MISSING_NAMED = 10_000;

/**
 * The ranges of `total` a finalize still needs: not recorded, or (`needDigest`) recorded without a digest by an older
 * server. At most MAX_MISSING_NAMED: the look stops there, so its work follows what was recorded, not the ranges a
 * begin declared (a 2 TiB sparse file's 33 M ranges held the event loop 3 s; found from outside, 2026-12-01).
 */
export function missingRanges(
  total: number,
  have: { has(n: number): boolean; get(n: number): string | null | undefined },
  needDigest: boolean,
): number[] {
  const missing: number[] = [];
  for (let n = 0; n < total && missing.length < MAX_MISSING_NAMED; n++)
    if (!have.has(n) || (needDigest && !have.get(n))) missing.push(n);
  return missing;
}

type BatchManifest = Record<string, { sha256: string; identifier: string }>;

/** A batch's manifest (its first entry): `{ files: { <path>: { sha256, identifier } } }`, else `1004`. */
function manifestOf(bytes: Buffer): BatchManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = null;
  }
  const files = (parsed as { files?: unknown } | null)?.files;
  if (
    parsed === null ||
    typeof parsed !== 'object' ||
    (files !== undefined && (files === null || typeof files !== 'object'))
  )
    throw new AppError(CommonCodes.invalidInput, EfileText.batchManifestInvalid);
  return (files ?? {}) as BatchManifest;
}

/**
 * The server side of the fast-transfer client (issue 11 §2): uploads of large files as ranges written at their
 * offsets into a preallocated hidden partial file, small files in verified tar batches, one status call for a
 * restarted client, a finalize that checks the SHA-256 before the final name; downloads as a streamed manifest,
 * ranged reads and tar batches. State lives in the database (and the finalize lock in the KV store), so any
 * instance serves any request. Only inside the user's home; creating needs write permission on the folder.
 * Every touch of the user's files goes through the user file system (`deps.userfs`), like every other file
 * operation: in unix mode the user's own worker process runs it and the kernel checks it (issue 10 §1).
 * This is fast transfer's front door to the partial-file core (features/partial): the session rows, the kept-open
 * partials, the finalize lock and the sweep are the core's; home only, the range locks, the digests and the
 * batches are this protocol's.
 */
export function fastransService(deps: EfileDeps, core: PartialCore) {
  const { userfs } = deps;
  const { repo } = core;
  /** Digest ranges held in memory until their answers are read (fs/block-pool.ts). */
  const held = new RangeBudget();
  const fileId = (sub: string, target: string, identifier: string, size: number) =>
    sessionId(sub, target, identifier, size);
  /**
   * A file's partial, kept open between its ranges (by the user's scope and the session): a range is then its
   * write and its fdatasync, not also an open and a close (in unix mode two requests to the worker fewer per range).
   * `createdAt` is the session's generation: a file begun anew under the same id (its partial made again) opens anew.
   */
  const open = core.handles<{ createdAt: number }>();
  const rangeKey = (user: FsScope & { sub: string }, id: string) =>
    [user.sub, user.cun, user.roots.join('\u0001'), id].join('\0');

  /** spec §5: fast transfer only inside the home directory, else its own warning. */
  function homeOnly(user: EfileUser, input: string): string {
    const p = normalizeClusterPath(input);
    let home: string;
    try {
      home = normalizeClusterPath(user.home);
    } catch {
      home = '';
    }
    if (!home || !isUnder(p, home))
      throw new AppError(FileCodes.permissionDenied, EfileText.fastransOutsideHome, {
        data: { reason: FastransRefusal.outsideHome },
      });
    return p;
  }
  const noWrite = (p: string) =>
    new AppError(FileCodes.permissionDenied, EfileText.noWritePermission(p), {
      data: { reason: FastransRefusal.noWrite },
    });

  /**
   * Resolves the final path of an upload, creating its missing folders (each inside the home, each in a folder the
   * user may write). `dirs` memoizes folders already checked within one call (a batch of 500 files in one folder
   * checks it once).
   */
  async function uploadTarget(user: EfileUser, target: string, dirs: Folders): Promise<Info> {
    const p = homeOnly(user, target);
    const name = path.posix.basename(p);
    validateName(name);
    const parent = await folder(user, path.posix.dirname(p), dirs);
    return userfs.resolve(user, join(parent.clusterPath, name), { follow: false, mustExist: false });
  }

  /**
   * A folder of an upload: an existing one must be a folder the user may write in (the kernel's answer in unix
   * mode), a missing one is made in such a folder.
   */
  /**
   * The folder `p` checked (or made) once per call: the promise is what is kept, so the 64 files of a batch that start
   * together in a new folder wait for one check instead of each resolving it (the cache held only finished checks,
   * and a 10,000-file upload resolved its 20 folders some thousand times). A failed check is not kept.
   */
  function folder(user: EfileUser, p: string, dirs: Folders): Promise<Info> {
    let hit = dirs.get(p);
    if (!hit) {
      const checking = checkFolder(user, p, dirs);
      dirs.set(p, checking);
      checking.catch(() => {
        if (dirs.get(p) === checking) dirs.delete(p);
      });
      hit = checking;
    }
    return hit;
  }

  async function checkFolder(user: EfileUser, p: string, dirs: Folders): Promise<Info> {
    let r: Info;
    try {
      r = await userfs.resolve(user, p, { mustExist: false });
    } catch (e) {
      // The parent is missing too (batches in flight at once each start somewhere in a new tree): make it first.
      if (!isAppError(e) || e.code !== FileCodes.notFound || p === path.posix.dirname(p)) throw e;
      homeOnly(user, p);
      await folder(user, path.posix.dirname(p), dirs);
      r = await userfs.resolve(user, p, { mustExist: false });
    }
    if (r.stat) {
      if (!r.stat.isDir) throw new AppError(FileCodes.notAFolder, EfileText.isNotAFolder(p));
      if (!(await userfs.access(user, p, 'write'))) throw noWrite(p);
    } else {
      homeOnly(user, p);
      validateName(r.name);
      await folder(user, path.posix.dirname(p), dirs);
      // Made in its checked parent; an existing folder there (a batch in flight at once made it) is fine.
      r = await userfs.ensureDir(user, p);
    }
    return r;
  }

  /** A done row counts only while its final file is still there with its size. */
  /**
   * Where each file a batch names is: its path checked to be in the home first, then its folder's real path, once per
   * folder (a batch's files share a few), so that a file is opened by name in it, never following a link, and checked
   * to be where the folder is (fs/file-ops' openForRead): the resolver's guarantee without its realpath and lstat per
   * file. A link named in a batch is refused: the walk that made the list skips links. A refusal is the file's own
   * `code`.
   */
  function batchLocator(user: EfileUser) {
    const folders = new Map<string, Promise<string>>();
    const folderOf = (dir: string) => {
      let f = folders.get(dir);
      if (!f) {
        f = userfs.resolve(user, dir).then((d) => {
          if (!d.stat?.isDir) throw new AppError(FileCodes.notAFolder);
          return d.host;
        });
        f.catch(() => undefined);
        folders.set(dir, f);
      }
      return f;
    };
    /** Where one file of the batch is (its path checked first and its folder's real path), or why not. */
    return async (input: string): Promise<{ p: string; host?: string; code?: string }> => {
      let p = input;
      try {
        p = homeOnly(user, input);
        if (p === '/') throw new AppError(FileCodes.notAFolder, EfileText.notARegularFile);
        const dirHost = await folderOf(path.posix.dirname(p));
        return { p, host: path.join(dirHost, path.posix.basename(p)) };
      } catch (e) {
        if (!isAppError(e)) throw e;
        return { p, code: e.code };
      }
    };
  }

  async function stillDone(user: FsScope, row: PartialRow, host: string): Promise<boolean> {
    return (await userfs.fileSize(user, host).catch(() => null)) === Number(row.size);
  }

  /** Removes an upload with its partial, as the user who wrote it (see the core's `discard`). */
  const removeUpload = (row: PartialRow, user?: FsScope) => core.discard(row, user);

  /**
   * Writes exactly `length` bytes of `body` at `offset` of the partial through the user file system, hashing them
   * as they stream (what was hashed is what was written, if the write succeeded whole), and makes them durable
   * (fdatasync) before answering: the caller records the range as verified on this answer, and finalize trusts that
   * record instead of reading the file again, so a record must never outlive the bytes in a crash of the machine.
   * Null when the body was shorter or longer. `abandon` is asked before each piece: true stops (the range's lock was
   * lost, someone else may be writing these bytes now).
   */
  async function writeRange(
    user: EfileUser,
    row: PartialRow,
    offset: number,
    length: number,
    body: AsyncIterable<Buffer>,
    abandon: () => boolean,
  ): Promise<{ sha256: string } | null> {
    const key = rangeKey(user, row.id);
    let entry = open.acquire(key);
    if (entry && entry.state.createdAt !== Number(row.created_at)) {
      open.release(entry);
      open.evict(row.id);
      entry = undefined;
    }
    entry ??= open.adopt(key, row.id, await userfs.openPartial(user, row.partial_host), {
      createdAt: Number(row.created_at),
    });
    const fh = entry.fh;
    const hash = crypto.createHash('sha256');
    let seen = 0;
    let over = false;
    async function* counted() {
      for await (const piece of body) {
        if (abandon()) throw new AppError(CommonCodes.unavailable, EfileText.rangeTakenOver);
        if (seen + piece.length > length) {
          over = true;
          const head = piece.subarray(0, Math.max(0, length - seen));
          hash.update(head);
          yield head;
          seen = length + 1;
          return;
        }
        seen += piece.length;
        hash.update(piece);
        yield piece;
      }
    }
    try {
      await fh.write(counted(), offset);
      if (over || seen !== length) return null;
      await fh.sync();
    } finally {
      open.release(entry);
    }
    return { sha256: hash.digest('hex') };
  }

  /** One file's refusal among a begin's answers, in the request's language (`lang`, its Accept-Language). */
  function refusal(
    path: string,
    id: string,
    rangeSize: number,
    e: unknown,
    lang: string | undefined,
  ): TransferFileStatus {
    if (!isAppError(e)) throw e;
    if (e.code === FileCodes.noSpace) throw e;
    const { reason, existingSize } = (e.data ?? {}) as { reason?: string; existingSize?: number };
    return {
      path,
      id,
      done: false,
      ranges: [],
      rangeSize,
      code: e.code,
      msg: localisedErrorMessage(e.code, e.message, lang, e.zh).msg,
      ...(reason ? { reason } : {}),
      ...(existingSize !== undefined ? { existingSize } : {}),
    };
  }

  return {
    homeOnly,

    /** Opens (or finds) the upload of each file: the one status call of a restarted client is this, too. */
    async begin(user: EfileUser, body: TransferBeginBody, lang?: string): Promise<TransferFileStatus[]> {
      const dirs: Folders = new Map();
      const out: TransferFileStatus[] = [];
      const now = deps.now();
      for (const f of body.files) {
        const rangeSize = body.rangeSize;
        let id = '';
        try {
          const target = await uploadTarget(user, f.path, dirs);
          id = fileId(user.sub, target.clusterPath, f.identifier, f.size);
          // This instance's kept-open partial of the id may be of a file removed since (cancel, a new range size,
          // a partial deleted by hand): the begin below prepares it again, and the next range opens it anew.
          open.evict(id);
          let row = await repo.get('range', id);
          if (row?.status === 'done') {
            if (await stillDone(user, row, target.host)) {
              out.push({
                path: target.clusterPath,
                id,
                done: true,
                ranges: [],
                rangeSize,
                rangeChecks: true,
              });
              continue;
            }
            await repo.remove(id);
            row = null;
          }
          if (row && Number(row.piece_size) !== rangeSize) {
            await removeUpload(row, user);
            row = null;
          }
          if (target.stat && (!body.overwrite || target.stat.isDir))
            throw new AppError(
              target.stat.isDir ? FileCodes.sameNameDir : FileCodes.sameNameFile,
              undefined,
              // A regular file's size: the client may find it is the very file it would send (see the contract).
              target.stat.isFile ? { data: { existingSize: target.stat.size } } : undefined,
            );
          const partialHost = path.join(target.parentHost, partialName(target.name, id));
          await userfs.preparePartial(user, partialHost, f.size);
          // A file begun again (a restarted client, or a retry after a late name conflict kept the partial) takes
          // this begin's overwrite choice: finalize reads it from the row.
          if (row && (row.overwrite === 1) !== !!body.overwrite)
            await repo.setOverwrite(id, !!body.overwrite);
          if (!row) {
            await core
              .openSession({
                id,
                kind: 'range',
                owner_sub: user.sub,
                owner_cun: user.cun,
                target: target.clusterPath,
                identifier: f.identifier,
                size: f.size,
                piece_size: rangeSize,
                total_pieces: Math.max(1, Math.ceil(f.size / rangeSize)),
                partial_host: partialHost,
                overwrite: body.overwrite ? 1 : 0,
                status: 'active',
                created_at: now,
                updated_at: now,
              })
              .catch(async (e: unknown) => {
                // Refused (the user's open uploads at their bound): the partial prepared above goes too, unless a
                // begin of the same file at the same moment made the session it belongs to.
                if (!(await repo.get('range', id)))
                  await userfs.unlink(user, partialHost).catch(() => undefined);
                throw e;
              });
          }
          const ranges = (await repo.piecesOf([id])).get(id) ?? [];
          out.push({
            path: target.clusterPath,
            id,
            done: false,
            ranges: ranges.sort((a, b) => a - b),
            rangeSize,
            rangeChecks: true,
          });
        } catch (e) {
          out.push(refusal(f.path, id, rangeSize, e, lang));
        }
      }
      return out;
    },

    /** What the server has of these files, without creating anything (a restarted client asks this once). */
    async status(user: EfileUser, files: TransferFileRef[]): Promise<TransferFileStatus[]> {
      const ids = files.map((f) => fileId(user.sub, homeOnly(user, f.path), f.identifier, f.size));
      const rows = new Map((await repo.getMany('range', ids)).map((r) => [r.id, r]));
      const ranges = await repo.piecesOf(ids.filter((id) => rows.get(id)?.status === 'active'));
      const out: TransferFileStatus[] = [];
      for (let i = 0; i < files.length; i++) {
        const id = ids[i]!;
        const row = rows.get(id);
        const p = normalizeClusterPath(files[i]!.path);
        if (!row || row.owner_sub !== user.sub) {
          out.push({ path: p, id, done: false, ranges: [], rangeSize: 0, rangeChecks: true });
          continue;
        }
        let done = row.status === 'done';
        if (done) {
          const t = await userfs.resolve(user, p, { follow: false, mustExist: false }).catch(() => null);
          done = !!t && (await stillDone(user, row, t.host));
        }
        out.push({
          path: p,
          id,
          done,
          ranges: done ? [] : (ranges.get(id) ?? []).sort((a, b) => a - b),
          rangeSize: Number(row.piece_size),
          rangeChecks: true,
        });
      }
      return out;
    },

    /**
     * Writes range `n` at its offset while hashing it; recorded (with that digest) only when it arrived whole and,
     * if the client sent one, equal to its `sha256`. A record always describes the bytes on disk: it is removed
     * before the bytes are touched and written after they are durable, under a lock of the range (two sends of one
     * range never write at once) and never while the file is being finalized.
     */
    async range(user: EfileUser, id: string, n: number, body: AsyncIterable<Buffer>, sha256?: string) {
      const row = await repo.get('range', id);
      if (!row || row.owner_sub !== user.sub) throw new AppError(FileCodes.notFound, EfileText.noSuchUpload);
      const total = Number(row.total_pieces);
      if (row.status === 'done') return { stored: total, total };
      if (n >= total) throw new AppError(CommonCodes.invalidInput, EfileText.noSuchRange);
      // The same range sent again (its answer was lost): already verified with these very bytes, nothing to write.
      if (sha256 && (await repo.pieceDigest(id, n)) === sha256)
        return { stored: await repo.countPieces(id), total };
      const start = n * Number(row.piece_size);
      const length = Math.min(Number(row.size), start + Number(row.piece_size)) - start;
      const lock = await acquireLock(deps.kv, `fastrans:range:${id}:${n}`, RANGE_LOCK_MS);
      if (!lock) throw new AppError(CommonCodes.unavailable, EfileText.rangeBeingWritten);
      // The lock is renewed by a timer: after a stall of this process long enough for it to expire unrenewed,
      // `lost` is only learnt at the next renewal. A heartbeat tells such a stall at once, and the writer stops.
      let beat = Date.now();
      const heart = setInterval(() => (beat = Date.now()), 1000);
      heart.unref();
      const lost = () => lock.lost || Date.now() - beat > RANGE_LOCK_MS / 2;
      try {
        await repo.removePiece(id, n);
        // After the record is gone: a finalize that starts from now on sees the range missing and refuses.
        if (await core.isFinalizing('range', id))
          throw new AppError(CommonCodes.unavailable, EfileText.fileBeingFinalized);
        // This instance may hold the partial open from an earlier range (the core's registry): a finalize that ended
        // after this request read the row has renamed that very file into place, a cancel has removed it. Read the
        // row again now that no finalize can begin without seeing this range missing: the bytes go only into a
        // partial that is still one.
        const current = await repo.get('range', id);
        if (current?.status === 'done') return { stored: total, total };
        if (!current || Number(current.created_at) !== Number(row.created_at))
          throw new AppError(FileCodes.notFound, EfileText.noSuchUpload);
        const got = await writeRange(user, row, start, length, body, lost);
        if (!got) throw new AppError(CommonCodes.interrupted, EfileText.rangeIncomplete);
        if (sha256 && got.sha256 !== sha256)
          throw new AppError(CommonCodes.verificationFailed, EfileText.rangeChecksumDiffers, {
            data: { range: n },
          });
        if (lost()) throw new AppError(CommonCodes.unavailable, EfileText.rangeTakenOver);
        await repo.addPiece(id, n, got.sha256);
      } finally {
        clearInterval(heart);
        await lock.release();
      }
      const now = deps.now();
      if (now - Number(row.updated_at) > 60_000) await repo.touch(id, now);
      return { stored: await repo.countPieces(id), total };
    },

    /**
     * Gives the partial its final name once it is verified, atomically and never half-written. With
     * `rangesSha256` (the hash list of the client's range digests) the check is against the digests efile
     * recorded while writing each range: every range 0…n-1 recorded, and SHA-256 over their 32-byte digests in
     * order equal to the client's; the file is not read again. With `sha256` (older clients) the partial is read
     * and hashed whole. Ranges missing are answered with `data.missing` (the client sends those again); a digest
     * that differs forgets every range (`data.mismatch`: the client sends the file again).
     */
    async finalize(user: EfileUser, id: string, digest: { sha256?: string; rangesSha256?: string }) {
      if (!digest.rangesSha256 && !digest.sha256)
        throw new AppError(CommonCodes.incompleteParams, EfileText.digestRequired);
      const row = await repo.get('range', id);
      if (!row || row.owner_sub !== user.sub) throw new AppError(FileCodes.notFound, EfileText.noSuchUpload);
      if (row.status === 'done') return { path: row.target, size: Number(row.size) };
      const lock = await core.lock('range', id);
      if (!lock) throw new AppError(CommonCodes.unavailable, EfileText.fileBeingFinalized);
      try {
        const total = Number(row.total_pieces);
        const recorded = await repo.digestsOf(id);
        const have = new Map(recorded.map((r) => [r.n, r.sha256]));
        // Rows of an older server carry no digest: those ranges are sent again when the hash list needs them.
        const missing = missingRanges(total, have, !!digest.rangesSha256);
        if (missing.length) {
          await repo.forgetPiecesIn(
            id,
            missing.filter((n) => have.has(n)),
          );
          throw new AppError(CommonCodes.incompleteParams, EfileText.rangesMissing, {
            data: { missing },
          });
        }
        const targetPath = homeOnly(user, row.target);
        const target = await userfs.resolve(user, targetPath, { follow: false, mustExist: false });
        const partial = path.join(target.parentHost, partialName(target.name, id));
        if (partial !== row.partial_host)
          throw new AppError(FileCodes.permissionDenied, EfileText.targetMovedDuringUpload);
        let equal: boolean;
        if (digest.rangesSha256) {
          const list = crypto.createHash('sha256');
          for (let n = 0; n < total; n++) list.update(Buffer.from(have.get(n)!, 'hex'));
          equal =
            list.digest('hex') === digest.rangesSha256 &&
            (await userfs.fileSize(user, partial)) === Number(row.size);
        } else {
          const got = await userfs.sha256(user, partial);
          equal = got.sha256 === digest.sha256 && got.size === Number(row.size);
        }
        if (!equal) {
          // Some range is not what the client meant: forget them all, the client sends the file again.
          await repo.forgetPieces(id);
          throw new AppError(CommonCodes.verificationFailed, EfileText.uploadedChecksumDiffers, {
            data: { mismatch: true },
          });
        }
        if (lock.lost) throw new AppError(CommonCodes.unavailable, EfileText.finalizeLockLost);
        // Truncated to its size, synced and given its name (over a file only with overwrite) as the user; this
        // instance's kept-open descriptor goes first (the file is no longer a partial).
        open.evict(id);
        await userfs.finalizePartial(user, {
          target: targetPath,
          partialName: partialName(target.name, id),
          expectedPartial: row.partial_host,
          size: Number(row.size),
          overwrite: row.overwrite === 1,
        });
        await repo.markDone(id, deps.now());
        return { path: row.target, size: Number(row.size) };
      } finally {
        await lock.release();
      }
    },

    /**
     * A tar batch of small files under `base`: each verified against the manifest's SHA-256, then renamed in. A body
     * of a declared `length` up to WHOLE_TAR_MAX (every batch of the client) is read whole first (readTarWhole).
     */
    async batch(user: EfileUser, base: string, overwrite: boolean, body: Readable, length: number | null) {
      const basePath = homeOnly(user, base);
      const dirs: Folders = new Map();
      const stored: string[] = [];
      const failed: { path: string; code: string }[] = [];
      let manifest: BatchManifest | null = null;
      // Recorded for the status call of a restarted client, in one statement per batch rather than one per file.
      const done: PartialRow[] = [];
      /** The record of a file of this batch, stored whole (one range), as the status call of a restart reads it. */
      const doneRow = (target: string, identifier: string, size: number): PartialRow => {
        const now = deps.now();
        return {
          id: fileId(user.sub, target, identifier, size),
          kind: 'range',
          owner_sub: user.sub,
          owner_cun: user.cun,
          target,
          identifier,
          size,
          piece_size: Math.max(1, size),
          total_pieces: 1,
          partial_host: '',
          overwrite: overwrite ? 1 : 0,
          status: 'done',
          created_at: now,
          updated_at: now,
        };
      };
      /**
       * "Name taken" for a file that an earlier send of this batch stored already (its answer was lost): that file
       * counts as stored, not refused.
       */
      const storedBefore = async (err: unknown, row: PartialRow, host: string) => {
        if (!isAppError(err) || err.code !== FileCodes.sameNameFile) return false;
        const prior = await repo.get('range', row.id);
        return prior?.status === 'done' && (await stillDone(user, prior, host));
      };
      /**
       * One larger file: target (folders made as needed), a hidden partial written while hashed, then (verified)
       * synced and given its final name; a mismatch removes the partial. Small files run up to POOL at once while
       * the tar is read on (their data is read first): a small file is a dozen file-system calls and an fsync, which
       * one after another were most of a batch's time.
       */
      const storeOne = async (
        rel: string,
        size: number,
        sha256: string,
        identifier: string,
        body: AsyncIterable<Buffer>,
      ) => {
        const t = await uploadTarget(user, join(basePath, rel), dirs);
        const tmpName = tempName(t.name, PARTIAL_SUFFIX);
        const tmp = path.join(t.parentHost, tmpName);
        const hash = crypto.createHash('sha256');
        const h = await userfs.openPartial(user, tmp);
        try {
          await h.write(
            (async function* () {
              for await (const piece of body) {
                hash.update(piece);
                yield piece;
              }
            })(),
            0,
          );
        } catch (e) {
          await h.close();
          await userfs.unlink(user, tmp);
          throw e;
        }
        await h.close();
        if (hash.digest('hex') !== sha256) {
          await userfs.unlink(user, tmp);
          throw new AppError(CommonCodes.verificationFailed, EfileText.checksumDiffers);
        }
        const row = doneRow(t.clusterPath, identifier, size);
        try {
          await userfs.finalizePartial(user, {
            target: t.clusterPath,
            partialName: tmpName,
            expectedPartial: tmp,
            size,
            overwrite,
          });
        } catch (err) {
          await userfs.unlink(user, tmp);
          if (!(await storedBefore(err, row, t.host))) throw err;
          stored.push(rel);
          return;
        }
        done.push(row);
        stored.push(rel);
      };
      /** A small file, whole in memory: the user file system stores it through its held folder. */
      const storeSmallOne = async (rel: string, sha256: string, identifier: string, data: Buffer[]) => {
        const p = homeOnly(user, join(basePath, rel));
        const name = path.posix.basename(p);
        validateName(name);
        assertSegmentLength(name);
        const parent = await folder(user, path.posix.dirname(p), dirs);
        const size = data.reduce((a, d) => a + d.length, 0);
        const row = doneRow(join(parent.clusterPath, name), identifier, size);
        try {
          await userfs.storeSmall(user, parent.host, name, data, sha256, overwrite);
        } catch (err) {
          if (!(await storedBefore(err, row, path.join(parent.host, name)))) throw err;
          stored.push(rel);
          return;
        }
        done.push(row);
        stored.push(rel);
      };
      /** Refusals of one file are its own; anything else (a full disk, an unexpected error) ends the batch. */
      const stop: { fatal: Error | null; read: Error | null } = { fatal: null, read: null };
      // Read through a function: the closures above set these, which narrowing at a check does not see.
      const stopped = (): Error | null => stop.read ?? stop.fatal;
      const settle = (rel: string) => (err: unknown) => {
        if (!isAppError(err) || err.code === FileCodes.noSpace)
          stop.fatal ??= err instanceof Error ? err : new Error(String(err));
        else failed.push({ path: rel, code: err.code });
      };
      const running = new Set<Promise<void>>();
      const onEntry: Parameters<typeof readTar>[1] = async (e, data, whole) => {
        let f = stopped();
        if (f) throw f;
        if (manifest === null) {
          if (e.path !== MANIFEST_NAME || e.size > 16 * 1024 * 1024)
            throw new AppError(CommonCodes.incompleteParams, EfileText.batchStartsWith(MANIFEST_NAME));
          const parts: Buffer[] = [];
          for await (const p of data()) parts.push(p);
          manifest = manifestOf(Buffer.concat(parts));
          return;
        }
        const rel = e.path.replace(/^(\.\/)+/, '').replace(/\/$/, '');
        try {
          validateRelativePath(rel);
          if (e.type === 'dir') {
            await folder(user, homeOnly(user, join(basePath, rel)), dirs);
            return;
          }
          if (e.type !== 'file') throw new AppError(FileCodes.abnormalFile, EfileText.onlyFilesAndFolders);
          const m = manifest[rel];
          if (!m || !/^[0-9a-f]{64}$/.test(m.sha256))
            throw new AppError(CommonCodes.verificationFailed, EfileText.noChecksumForFile);
          if (e.size > SMALL) return await storeOne(rel, e.size, m.sha256, m.identifier, data());
          const job = storeSmallOne(rel, m.sha256, m.identifier, await whole()).catch(settle(rel));
          running.add(job);
          void job.finally(() => running.delete(job));
          if (running.size >= POOL) await Promise.race(running);
        } catch (err) {
          settle(rel)(err);
          f = stopped();
          if (f) throw f;
        }
      };
      await (
        length !== null && length <= WHOLE_TAR_MAX
          ? readTarWhole(body, length, onEntry, () => Promise.all(running))
          : readTar(body, onEntry)
      ).catch((e: unknown) => {
        stop.read = e instanceof Error ? e : new Error(String(e));
      });
      // What was under way is settled (and recorded) before the answer, whatever stopped the reading.
      await Promise.all(running);
      await repo.recordDoneMany(done);
      const f = stopped();
      if (f) throw f;
      return { stored, failed };
    },

    async cancel(user: EfileUser, ids: string[]) {
      let n = 0;
      for (const id of ids) {
        const row = await repo.get('range', id);
        if (!row || row.owner_sub !== user.sub || row.status !== 'active') continue;
        await removeUpload(row, user);
        n++;
      }
      return n;
    },

    /** The core's one sweep (stale sessions of every kind, with their partials; see features/partial). */
    sweep: (now?: number) => core.sweep(now),

    /** Closes this front door's kept-open partials (the server's close). */
    close: () => open.closeAll(),

    // ---- downloads -------------------------------------------------------------------------------------------------
    /**
     * Every folder and file under the chosen items, relative to their parent, as NDJSON lines (any count), yielded
     * in pieces of whole lines.
     */
    async *manifest(user: EfileUser, paths: string[]): AsyncGenerator<string> {
      let out = '';
      for (const p of paths) {
        const item = await userfs.resolve(user, homeOnly(user, p));
        for await (const group of userfs.walk(user, item.host, item.parentHost)) {
          for (const e of group) out += JSON.stringify(e) + '\n';
          if (out.length < MANIFEST_PIECE) continue;
          yield out;
          out = '';
        }
      }
      if (out) yield out;
    },

    async read(req: FastifyRequest, reply: FastifyReply, user: EfileUser, p: string) {
      const item = await userfs.resolve(user, homeOnly(user, p));
      if (!item.stat?.isFile) throw new AppError(FileCodes.notAFolder, EfileText.notARegularFile);
      // Through the user file system like every other download (the user's own worker in unix mode).
      const file = await userfs.openRead(user, item.host);
      const want = String(req.headers['want-content-digest'] ?? '');
      if (!want.toLowerCase().includes(WANT_CONTENT_DIGEST) || !req.headers.range)
        return sendFile(req, reply, file, item.name);
      // A range with its digest (RFC 9530): read whole (bounded), hashed, then sent with `Content-Digest`.
      try {
        const range = parseRange(req.headers.range, file.size);
        if (!range || range === 'invalid' || range.end - range.start + 1 > DIGEST_RANGE_MAX)
          throw new AppError(CommonCodes.invalidInput, EfileText.digestRangeTooLarge, {
            status: 416,
          });
        // Within the user's and the process's budget of ranges held (RangeBudget); past it, the client asks again
        // later (1001, as for any busy moment).
        const size = range.end - range.start + 1;
        if (!held.take(user.sub, size))
          throw new AppError(CommonCodes.unavailable, EfileText.tooManyRangesHeld, { status: 503 });
        // A kept buffer (fs/block-pool.ts says why), back once the answer is done with it (sent, or the client gone).
        const body = takeRangeBuffer(size);
        const giveBack = () => {
          held.give(user.sub, size);
          giveRangeBuffer(body);
        };
        let lent = false;
        try {
          // Straight into the kept buffer (in single mode one read call, no stream of 1 MiB blocks copied on). A
          // read that fails midway (a disk error, the worker's answer cut off) is a range to ask again, as a short
          // one is; a refusal (the file changed since it was opened) is answered as it is.
          const got = await file.readAt(body, range.start).catch((e: unknown) => {
            if (isAppError(e)) throw e;
            return -1;
          });
          if (got !== body.length) throw new AppError(CommonCodes.unavailable, EfileText.changedWhileRead);
          const digest = contentDigest(crypto.createHash('sha256').update(body).digest('hex'));
          lent = true;
          reply.raw.once('close', giveBack);
          return reply
            .status(206)
            .type('application/octet-stream')
            .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
            .header('content-digest', digest)
            .send(body);
        } finally {
          if (!lent) giveBack();
        }
      } finally {
        await file.close().catch(() => undefined);
      }
    },

    /**
     * Small files as one tar stream, named by their cluster paths (without the leading '/'), written with contracts'
     * batch tar (the client's reader) a piece per READ_AHEAD files; each file is read whole (batches hold files
     * ≤ 1 MiB) and hashed before its entry is written, so a file that cannot be read is a failure in the manifest,
     * never a half-written entry. The SHA-256 of each (or the code of a file that could not be read) goes in a
     * manifest entry at the end. Pieces are made as the client reads: a slow client holds the files back instead of
     * the server holding the batch. (Through tar-stream's pack, each file was an entry stream and three pieces of a
     * few hundred bytes, gathered again before the socket: PERFORMANCE.md.)
     */
    async *readBatch(user: EfileUser, paths: string[]): AsyncGenerator<Buffer> {
      const files: Record<string, { sha256: string }> = {};
      const failed: Record<string, string> = {};
      const locate = batchLocator(user);
      // READ_AHEAD files are read at once (one call to the user file system: one request to the worker in unix
      // mode, read and hashed in the store threads), then written as one piece; at most READ_AHEAD MiB of a batch is
      // in memory, whatever the client asked for.
      for (let at = 0; at < paths.length; at += READ_AHEAD) {
        const located = await Promise.all(paths.slice(at, at + READ_AHEAD).map(locate));
        const hosts = located.flatMap((l) => (l.host ? [l.host] : []));
        const reads = hosts.length ? await userfs.readSmall(user, hosts, SMALL) : [];
        const w = new TarWriter({ end: false });
        const placed: { at: number; data: Buffer }[] = [];
        let next = 0;
        for (const { p, host, code } of located) {
          const r = host ? reads[next++] : { code: code! };
          if (!r || 'code' in r) {
            failed[p] = r?.code ?? FileCodes.notFound;
            continue;
          }
          files[p] = { sha256: r.sha256 };
          // No mtime: the client gives a downloaded file its own time, as scp without -p does.
          placed.push({ at: w.add(p.slice(1), r.data.length), data: r.data });
        }
        if (placed.length === 0) continue;
        const piece = Buffer.alloc(w.size());
        w.build(piece);
        for (const f of placed) piece.set(f.data, f.at);
        yield piece;
      }
      const end = tarPack([{ name: MANIFEST_NAME, data: Buffer.from(JSON.stringify({ files, failed })) }]);
      yield Buffer.from(end.buffer, end.byteOffset, end.byteLength);
    },

    /**
     * Which of `files` (named relative to the folder `base`, as a batch names them) are there already with exactly
     * these bytes: a regular file of that size whose SHA-256 is the one given, read and hashed as a download batch
     * reads (opened in its folder's real path, never through a link nor blocking on a FIFO). Anything else is
     * left out, never an error: the client then sends those files, and the batch refuses what it must.
     */
    async same(user: EfileUser, base: string, files: TransferSameBody['files']): Promise<string[]> {
      const basePath = homeOnly(user, base);
      const locate = batchLocator(user);
      const same: string[] = [];
      for (let at = 0; at < files.length; at += READ_AHEAD) {
        const part = files.slice(at, at + READ_AHEAD);
        const located = await Promise.all(
          part.map(async (f) => {
            try {
              validateRelativePath(f.name);
            } catch (e) {
              if (isAppError(e)) return { code: e.code };
              throw e;
            }
            return locate(join(basePath, f.name));
          }),
        );
        const hosts = located.flatMap((l) => ('host' in l && l.host ? [l.host] : []));
        const reads = hosts.length ? await userfs.readSmall(user, hosts, SMALL) : [];
        let next = 0;
        part.forEach((f, k) => {
          const l = located[k]!;
          if (!('host' in l) || !l.host) return;
          const r = reads[next++];
          if (r && !('code' in r) && r.data.length === f.size && r.sha256 === f.sha256) same.push(f.name);
        });
      }
      return same;
    },

    async sha256(user: EfileUser, p: string) {
      const item = await userfs.resolve(user, homeOnly(user, p));
      if (!item.stat?.isFile) throw new AppError(FileCodes.notAFolder, EfileText.notARegularFile);
      return userfs.sha256(user, item.host);
    },
  };
}
export type FastransService = ReturnType<typeof fastransService>;
