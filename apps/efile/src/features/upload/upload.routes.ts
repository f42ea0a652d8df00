import type { FastifyRequest } from 'fastify';
import {
  ChunkParams,
  ChunkResponse,
  ChunkStatusResponse,
  DeletePartialBody,
  DeletePartialResponse,
  MergeBody,
  MergeResponse,
  UploadTargetQuery,
  CommonCodes,
  FileCodes,
} from '@hpc/contracts';
import { AppError, isAppError, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import { multipartBoundary, readFileForm } from '../../http/file-form';
import type { UploadService } from './upload.service';
import { EfileText } from '../../messages';

/**
 * simple-uploader.js treats 404, 415, 500 and 501 as permanent failures and retries anything else, so upload
 * errors keep their envelope code but travel with one of those statuses: missing → 404, no space and server
 * faults → 500, everything the user must change (conflict, size, names, permission) → 415.
 */
function uploadError(e: unknown): never {
  if (!isAppError(e)) throw e;
  if (e.code === CommonCodes.tokenWithoutUser || e.code === CommonCodes.userFrozen) throw e;
  const status =
    e.code === FileCodes.notFound || e.code === FileCodes.dirNotFound ? 404 : e.status >= 500 ? 500 : 415;
  // The same refusal with another status: its message as it was, in both languages when it has them.
  const msg = e.zh === null ? e.message : { en: e.message, zh: e.zh };
  throw new AppError(e.code, msg, { status, data: e.data });
}

/**
 * The multipart fields of a chunk, checked and converted by the same compiled (ajv, coercing) validator that checks
 * the test GET's query string, so both requests of a chunk read their parameters alike. A profile showed TypeBox's
 * interpreted Clone/Clean/Convert/Check at ~6 % of the server's time per chunk; the compiled check is cached per
 * schema by Fastify.
 */
function parseChunkParams(req: FastifyRequest, raw: Record<string, unknown>): ChunkParams {
  const validate = req.compileValidationSchema(ChunkParams, 'querystring');
  if (!validate(raw)) {
    const missing = (validate.errors ?? []).some((e) => e.keyword === 'required');
    throw new AppError(
      missing ? CommonCodes.incompleteParams : CommonCodes.invalidInput,
      EfileText.invalidChunkParams,
    );
  }
  return raw as ChunkParams;
}

export function uploadRoutes(app: EfileApp, { auth, deps }: EfileContext, uploads: UploadService): void {
  app.get('/chunkUpload.action', { schema: { querystring: ChunkParams } }, async (req, reply) => {
    const stored = await uploads.testChunk(auth.user(req), req.query).catch(uploadError);
    if (!stored) return reply.status(204).send();
    return reply.send(
      ok({ stored: 1, totalChunks: req.query.totalChunks, complete: false, path: req.query.path }),
    );
  });

  const formLimits = {
    fields: 40,
    headBytes: 64 * 1024,
    fileBytes: deps.config.EFILE_MAX_CHUNK_SIZE,
  };
  app.post('/chunkUpload.action', { schema: { response: { 200: ChunkResponse } } }, async (req) => {
    const user = auth.user(req);
    const boundary = multipartBoundary(req.headers['content-type']);
    if (!boundary) uploadError(new AppError(CommonCodes.incompleteParams, EfileText.sendChunkAsMultipart));
    const form = await readFileForm(req.raw, boundary, formLimits).catch(uploadError);
    try {
      const params = parseChunkParams(req, { ...(req.query as Record<string, unknown>), ...form.fields });
      return ok(await uploads.writeChunk(user, params, form.file(params.currentChunkSize)));
    } catch (e) {
      return uploadError(e);
    } finally {
      form.discard();
    }
  });

  app.get(
    '/upload/chunkStatus.action',
    { schema: { querystring: UploadTargetQuery, response: { 200: ChunkStatusResponse } } },
    async (req) => ok(await uploads.chunkStatus(auth.user(req), req.query)),
  );
  app.post('/merge.action', { schema: { body: MergeBody, response: { 200: MergeResponse } } }, async (req) =>
    ok(await uploads.merge(auth.user(req), req.body)),
  );
  app.post(
    '/upload/deletePartial.action',
    { schema: { body: DeletePartialBody, response: { 200: DeletePartialResponse } } },
    async (req) => ok({ deleted: await uploads.deletePartial(auth.user(req), req.body.paths) }),
  );
}
