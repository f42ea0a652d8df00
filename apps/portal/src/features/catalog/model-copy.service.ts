import crypto from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import tar from 'tar-stream';
import { ApiError, type EfileCalls } from '@hpc/api-client';
import type { EfileInfo, ModelCopyBody, ModelCopyJob } from '@hpc/contracts';
import { CommonCodes, FileCodes, Limits, PortalCodes, localisedErrorMessage } from '@hpc/contracts';
import { AppError, isAppError, type KvStore } from '@hpc/server-kit';
import type { CatalogModelFileTable } from '../../db/tables/catalog.tables';
import { efileFailure } from '../../efile-client';
import type { ModelFilesService } from './model-files';
import { PortalText } from '../../messages';

/** ustar's size field holds 11 octal digits; a bigger file's size goes in a pax record. */
const USTAR_SIZE_MAX = 0o77777777777;

/**
 * Waits until the entry takes more bytes, or until it is closed: the PUT's body was dropped (a cancelled or failed
 * copy) and the archive destroyed with it. Waiting for 'drain' alone would never end then (the writer would hang on
 * with its listener; the stored file is closed by the caller's `finally` either way).
 */
function drained(entry: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (closed: boolean) => () => {
      entry.off('drain', onDrain);
      entry.off('close', onClose);
      if (closed) reject(new AppError(CommonCodes.interrupted, PortalText.archiveClosed));
      else resolve();
    };
    const onDrain = done(false);
    const onClose = done(true);
    entry.on('drain', onDrain);
    entry.on('close', onClose);
  });
}

/**
 * Adds one entry to the archive and resolves when tar-stream has taken all of it (it takes one entry at a time).
 * `body` writes a file's bytes; a directory has none.
 */
function addEntry(
  pack: tar.Pack,
  header: tar.Headers,
  body?: (entry: Writable) => Promise<void>,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const entry = pack.entry(header, (err) => (err ? reject(err) : resolve()));
    if (!body) return;
    body(entry).then(
      () => entry.end(),
      (err: unknown) => {
        // The archive fails with this error (tar-stream's own destroy, reached through the entry, carries none).
        const error = err instanceof Error ? err : new Error(String(err));
        pack.destroy(error);
        reject(error);
      },
    );
  });
}

export interface ModelCopyDeps {
  files: ModelFilesService;
  kv: KvStore;
  now: () => number;
  /** `GET /model-zoo/proxy/efile/info` for the user on a cluster (refuses disabled accounts, missing services). */
  efileInfo: (userId: number, clusterId: string) => Promise<EfileInfo>;
  /**
   * The user's cluster token for that cluster, signed now (a long copy outlives the token it started with), for
   * the page session `sid` that asked for the copy: ending that session for safety ends the copy's tokens too.
   */
  clusterToken: (userId: number, clusterId: string, sid?: string) => Promise<string>;
  /**
   * Revokes a Linux command efile issued to the user (by its secret): the copy's upload command, once the copy
   * has ended, so it is not left valid until midnight in the user centre's list (found from outside, 2026-12-01).
   */
  revokeCommand: (userId: number, secret: string) => Promise<unknown>;
  /**
   * The calls of one efile instance (contracts' declared routes through `@hpc/api-client`): `token` the user's
   * cluster token (none for the health check), `timeoutMs` 0 for none, `lang` the user's `Accept-Language` (efile's
   * refusals then come in the user's language).
   */
  efile: (
    base: string,
    clusterId: string,
    token: string | undefined,
    timeoutMs: number,
    lang?: string,
  ) => EfileCalls;
  warn: (err: unknown, msg: string) => void;
  /** How often progress is written to the store (and a cancel from another instance noticed). */
  flushMs?: number;
}

/** Finished jobs stay readable this long; a running one's lock expires on its own if its instance dies. */
const JOB_TTL_MS = 24 * 3600_000;
const LOCK_TTL_MS = 3600_000;
const SMALL_CALL_MS = 30_000;

const jobKey = (id: string) => `model-copy:job:${id}`;
const lockKey = (userId: number) => `model-copy:lock:${userId}`;
const cancelKey = (id: string) => `model-copy:cancel:${id}`;

/**
 * A job as the store keeps it: its error with both texts (the English `msg` and the Chinese when the portal wrote
 * one), so each progress call answers in the language it asks for, whichever instance or language started it.
 */
type CopyJob = Omit<ModelCopyJob, 'error'> & {
  error: { code: string; msg: string; zh: string | null } | null;
};

interface Stored {
  owner: number;
  job: CopyJob;
}

/** A stored job as the contract answers it, its error in the caller's language (`Accept-Language`). */
function answered(job: CopyJob, acceptLanguage: string | undefined): ModelCopyJob {
  if (!job.error) return { ...job, error: null };
  const { code, msg, zh } = job.error;
  return { ...job, error: { code, ...localisedErrorMessage(code, msg, acceptLanguage, zh) } };
}

// eslint-disable-next-line no-control-regex
const BAD_NAME = /[\u0000-\u001f\u007f/\\]/;

/** The folder name rules of spec §5 (efile checks them again): not blank, at most 70, no "/", not . or .. */
function checkName(name: string): void {
  if (name.trim() === '') throw new AppError(CommonCodes.invalidInput, PortalText.folderNameBlank);
  if ([...name].length > Limits.nameMaxLength) {
    throw new AppError(CommonCodes.invalidInput, PortalText.folderNameTooLong(Limits.nameMaxLength));
  }
  if (BAD_NAME.test(name) || name === '.' || name === '..') throw new AppError(FileCodes.specialChars);
}

function normalParent(p: string): string {
  if (p.includes('\0')) throw new AppError(CommonCodes.illegalParams);
  if (!p.startsWith('/')) throw new AppError(CommonCodes.invalidInput, PortalText.folderNotAbsolute);
  const segs = p.split('/').filter(Boolean);
  if (segs.some((s) => s === '..' || s === '.'))
    throw new AppError(CommonCodes.invalidInput, PortalText.pathHasDots);
  return '/' + segs.join('/');
}

/**
 * "Copy to my E-File" (issue 13 §3): streams a model's files from the catalogue storage into a new folder of the
 * user's files on a cluster, through that cluster's efile and only its public API: `exist.action` (the folder must
 * be new), `linuxUpload.action` (a scoped upload token for the parent folder, as the Linux commands get),
 * `PUT /linux/tar` (the token in its header; the files as one tar stream, which efile extracts with its checks, each file written
 * atomically), `rename.action` (the hidden staging folder becomes the final one, so nothing half-copied is ever
 * visible under the final name) and `remove.action` (the staging folder, on error or cancel).
 *
 * One copy per user at a time (spec §4), held by a lock in the shared store; progress is written to the store, so
 * any portal instance answers the progress and cancel calls; each file's sha256 is checked while it streams.
 */
export class ModelCopyService {
  private readonly running = new Map<string, AbortController>();
  private readonly flushMs: number;

  constructor(private readonly deps: ModelCopyDeps) {
    this.flushMs = deps.flushMs ?? 500;
  }

  /** Starts a copy; `lang` (the request's `Accept-Language`) is the language efile is asked to refuse in. */
  async start(
    userId: number,
    modelId: number,
    body: ModelCopyBody,
    lang?: string,
    sid?: string,
  ): Promise<ModelCopyJob> {
    const { deps } = this;
    checkName(body.name);
    const parent = normalParent(body.parentPath);
    const rows = await deps.files.rows(modelId);
    if (rows.length === 0) throw new AppError(FileCodes.notFound, PortalText.modelHasNoFiles);
    const info = await deps.efileInfo(userId, body.clusterId);
    const token = await deps.clusterToken(userId, body.clusterId, sid);
    const base = await this.workingBase(info);
    const targetPath = `${parent === '/' ? '' : parent}/${body.name}`;

    const efile = deps.efile(base, body.clusterId, token, SMALL_CALL_MS, lang);
    const exist = await efile.exist(targetPath).catch(rethrow);
    if (exist.exist) throw new AppError(exist.isDirectory ? FileCodes.sameNameDir : FileCodes.sameNameFile);

    const jobId = crypto.randomBytes(16).toString('base64url');
    if (!(await deps.kv.setIfAbsent(lockKey(userId), jobId, LOCK_TTL_MS)))
      throw new AppError(FileCodes.operationLimit);
    try {
      const upload = await efile.linuxUpload(parent).catch(rethrow);
      const now = deps.now();
      const job: CopyJob = {
        jobId,
        modelId,
        clusterId: body.clusterId,
        targetPath,
        state: 'running',
        bytesDone: 0,
        bytesTotal: rows.reduce((n, r) => n + r.size, 0),
        filesDone: 0,
        filesTotal: rows.length,
        error: null,
        startedAt: now,
        updatedAt: now,
      };
      await this.save(userId, job);
      const stage = `.${body.name.slice(0, 40)}.copy-${jobId.slice(0, 8)}`;
      const answer = answered(job, undefined);
      void this.run(userId, job, rows, {
        base,
        parent,
        stage,
        name: body.name,
        uploadToken: upload.token,
        lang,
        sid,
      });
      return answer;
    } catch (e) {
      await deps.kv.del(lockKey(userId));
      throw e;
    }
  }

  /** The job's progress; its error in the language of `acceptLanguage` (the request's header). */
  async progress(userId: number, jobId: string, acceptLanguage?: string): Promise<ModelCopyJob> {
    return answered(await this.stored(userId, jobId), acceptLanguage);
  }

  async cancel(userId: number, jobId: string, acceptLanguage?: string): Promise<ModelCopyJob> {
    const job = await this.stored(userId, jobId);
    if (job.state === 'running') {
      await this.deps.kv.set(cancelKey(jobId), '1', JOB_TTL_MS);
      this.running.get(jobId)?.abort();
    }
    return answered(job, acceptLanguage);
  }

  private async stored(userId: number, jobId: string): Promise<CopyJob> {
    const raw = await this.deps.kv.get(jobKey(jobId));
    const stored = raw ? (JSON.parse(raw) as Stored) : null;
    // Another user's job reads as missing: job ids are not a way to learn about other users' files.
    if (!stored || stored.owner !== userId) throw new AppError(PortalCodes.notFound, PortalText.noSuchCopy);
    return stored.job;
  }

  /** The first of the cluster's enabled efile instances (the round-robin pick first) whose health check answers. */
  private async workingBase(info: EfileInfo): Promise<string> {
    const order = [info.efileUrl, ...info.efileUrls.filter((u) => u !== info.efileUrl)];
    for (const base of order) {
      if (await this.deps.efile(base, info.clusterId, undefined, 0).healthy(5000)) return base;
    }
    throw new AppError(CommonCodes.unavailable, PortalText.centreFileServiceDown, {
      data: { clusterId: info.clusterId, kind: 'AccessError' },
    });
  }

  private async save(userId: number, job: CopyJob): Promise<void> {
    job.updatedAt = this.deps.now();
    await this.deps.kv.set(
      jobKey(job.jobId),
      JSON.stringify({ owner: userId, job } satisfies Stored),
      JOB_TTL_MS,
    );
  }

  private async run(
    userId: number,
    job: CopyJob,
    rows: CatalogModelFileTable[],
    t: {
      base: string;
      parent: string;
      stage: string;
      name: string;
      uploadToken: string;
      lang?: string;
      sid?: string;
    },
  ): Promise<void> {
    const { deps } = this;
    const abort = new AbortController();
    this.running.set(job.jobId, abort);
    const stagePath = `${t.parent === '/' ? '' : t.parent}/${t.stage}`;
    let lastFlush = deps.now();
    const flush = async (force = false) => {
      if (!force && deps.now() - lastFlush < this.flushMs) return;
      lastFlush = deps.now();
      // A cancel sent to another instance reaches this one through the store.
      if (await deps.kv.get(cancelKey(job.jobId))) abort.abort();
      await this.save(userId, job);
      await deps.kv.set(lockKey(userId), job.jobId, LOCK_TTL_MS);
    };

    const files = deps.files;
    /** Set by the archive when a whole file came out with the wrong sha256 (see below). */
    const found: { mismatch: AppError | null } = { mismatch: null };
    // The archive efile's `PUT /linux/tar` extracts, written by tar-stream: pax records carry names over
    // 100 bytes and sizes over ustar's 8 GiB (model weights reach that).
    const pack = tar.pack();
    let archiveClosed = false;
    pack.on('close', () => (archiveClosed = true));
    async function writeArchive(): Promise<void> {
      const mtime = new Date(deps.now());
      await addEntry(pack, { name: t.stage, type: 'directory', mode: 0o755, mtime });
      for (const row of rows) {
        const file = await files.openRow(row);
        const hash = crypto.createHash('sha256');
        try {
          await addEntry(
            pack,
            {
              name: `${t.stage}/${row.path}`,
              type: 'file',
              mode: 0o644,
              mtime,
              size: row.size,
              ...(row.size > USTAR_SIZE_MAX ? { pax: { size: String(row.size) } } : {}),
            },
            async (entry) => {
              let sent = 0;
              for await (const chunk of file.stream as AsyncIterable<Buffer>) {
                if (abort.signal.aborted || archiveClosed)
                  throw new AppError(CommonCodes.interrupted, PortalText.copyCancelled);
                // Never more than the header announced, even if the stored file grew meanwhile.
                const part = chunk.subarray(0, Math.max(0, row.size - sent));
                hash.update(part);
                sent += part.length;
                job.bytesDone += part.length;
                if (!entry.write(part)) await drained(entry);
                await flush();
              }
              if (sent !== row.size)
                throw new AppError(CommonCodes.verificationFailed, PortalText.sha256Mismatch(row.path));
            },
          );
          // A whole file with the wrong bytes: end the archive cleanly instead of cutting the request, so that the
          // PUT's answer comes after efile has written everything, and the staging folder is removed after that.
          // Cutting it left efile still writing into the folder while the portal removed it.
          if (hash.digest('hex') !== row.sha256)
            found.mismatch = new AppError(
              CommonCodes.verificationFailed,
              PortalText.sha256Mismatch(row.path),
            );
        } finally {
          file.stream.destroy();
        }
        if (found.mismatch) break;
        job.filesDone++;
      }
      pack.finalize();
    }
    // Started by the first read of the request body, so that no error can come before the PUT listens for it.
    async function* archive(): AsyncGenerator<Buffer> {
      writeArchive().catch((err: unknown) => pack.destroy(err as Error));
      yield* pack as AsyncIterable<Buffer>;
    }

    try {
      const result = await deps
        .efile(t.base, job.clusterId, undefined, 0, t.lang)
        .linuxTar(
          t.uploadToken,
          Readable.toWeb(Readable.from(archive())) as ReadableStream,
          false,
          abort.signal,
        )
        .catch(rethrow);
      if (abort.signal.aborted) throw new AppError(CommonCodes.interrupted, PortalText.copyCancelled);
      if (found.mismatch) throw found.mismatch;
      if (result.skipped.length > 0 || result.files !== rows.length) {
        throw new AppError(FileCodes.abnormalFile, PortalText.notCopied(result.skipped.join(', ')));
      }
      const token = await deps.clusterToken(userId, job.clusterId, t.sid);
      await deps
        .efile(t.base, job.clusterId, token, SMALL_CALL_MS, t.lang)
        .rename(stagePath, t.name)
        .catch(rethrow);
      job.state = 'success';
    } catch (e) {
      const cancelled =
        abort.signal.aborted || Boolean(await deps.kv.get(cancelKey(job.jobId)).catch(() => null));
      job.state = cancelled ? 'cancelled' : 'error';
      job.error = cancelled
        ? null
        : isAppError(e)
          ? { code: e.code, msg: e.message, zh: e.zh }
          : { code: CommonCodes.unavailable, msg: (e as Error).message, zh: null };
      if (!cancelled && !isAppError(e)) deps.warn(e, 'model copy failed');
      await this.removeStage(userId, job.clusterId, t.base, stagePath, t.sid);
    } finally {
      this.running.delete(job.jobId);
      await deps
        .revokeCommand(userId, t.uploadToken)
        .catch((err: unknown) => deps.warn(err, 'model copy: revoking its upload command failed'));
      await this.save(userId, job).catch((err: unknown) =>
        deps.warn(err, 'model copy: saving the job failed'),
      );
      await deps.kv.del(lockKey(userId)).catch(() => undefined);
      await deps.kv.del(cancelKey(job.jobId)).catch(() => undefined);
    }
  }

  /** Removes what a failed or cancelled copy left in its staging folder (never the final name: it was not made). */
  private async removeStage(
    userId: number,
    clusterId: string,
    base: string,
    stagePath: string,
    sid?: string,
  ) {
    try {
      const token = await this.deps.clusterToken(userId, clusterId, sid);
      await this.deps.efile(base, clusterId, token, SMALL_CALL_MS).remove([stagePath]);
    } catch (err) {
      // 1020: nothing was extracted yet.
      if (!(err instanceof ApiError && err.code === FileCodes.notFound))
        this.deps.warn(err, 'model copy: staging folder left behind');
    }
  }
}

/** An efile call's failure as the portal's error (`efileFailure`), rethrown. */
function rethrow(e: unknown): never {
  throw efileFailure(e);
}

/** "Copy to my E-File" (the factory every feature's service has). */
export function createModelCopyService(deps: ModelCopyDeps): ModelCopyService {
  return new ModelCopyService(deps);
}
