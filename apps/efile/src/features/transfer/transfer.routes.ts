import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  TransferBatchQuery,
  TransferBatchResponse,
  TransferBeginBody,
  TransferCancelBody,
  TransferFinalizeBody,
  TransferFinalizeResponse,
  TransferManifestBody,
  TransferRangeQuery,
  TransferRangeResponse,
  TransferReadBatchBody,
  TransferReadQuery,
  TransferShaBody,
  TransferShaResponse,
  TransferStatusBody,
  TransferStatusResponse,
} from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { TransferService } from './transfer.service';

const tags = ['fastrans'];
// The body is the bytes themselves: never let a text/JSON parser take it, whatever type the client claims.
const rawBody = async (req: FastifyRequest) => {
  req.headers['content-type'] = 'application/octet-stream';
};

/** The fast-transfer client's calls (contracts/fastrans.ts). Authenticated like every efile call (cluster token). */
export function transferRoutes(app: EfileApp, { auth }: EfileContext, transfers: TransferService): void {
  app.post(
    '/fastrans/begin.action',
    {
      bodyLimit: 16 * 1024 * 1024,
      schema: { tags, body: TransferBeginBody, response: { 200: TransferStatusResponse } },
    },
    async (req) => ok({ files: await transfers.begin(auth.user(req), req.body) }),
  );
  app.post(
    '/fastrans/status.action',
    // One call carries every unfinished file of a restarted task (up to 100,000 paths).
    {
      bodyLimit: 64 * 1024 * 1024,
      schema: { tags, body: TransferStatusBody, response: { 200: TransferStatusResponse } },
    },
    async (req) => ok({ files: await transfers.status(auth.user(req), req.body.files) }),
  );
  app.put(
    '/fastrans/range.action',
    {
      onRequest: rawBody,
      schema: { tags, querystring: TransferRangeQuery, response: { 200: TransferRangeResponse } },
    },
    async (req) =>
      ok(await transfers.range(auth.user(req), req.query.id, req.query.n, req.raw, req.query.sha256)),
  );
  app.post(
    '/fastrans/finalize.action',
    { schema: { tags, body: TransferFinalizeBody, response: { 200: TransferFinalizeResponse } } },
    async (req) => ok(await transfers.finalize(auth.user(req), req.body.id, req.body)),
  );
  app.put(
    '/fastrans/batch.action',
    {
      onRequest: rawBody,
      schema: { tags, querystring: TransferBatchQuery, response: { 200: TransferBatchResponse } },
    },
    async (req) =>
      ok(await transfers.batch(auth.user(req), req.query.path, req.query.overwrite ?? false, req.raw)),
  );
  app.post('/fastrans/cancel.action', { schema: { tags, body: TransferCancelBody } }, async (req) =>
    ok({ cancelled: await transfers.cancel(auth.user(req), req.body.ids) }),
  );

  app.post(
    '/fastrans/manifest.action',
    { bodyLimit: 16 * 1024 * 1024, schema: { tags, body: TransferManifestBody } },
    async (req, reply) => {
      const user = auth.user(req);
      // The first line is produced before the status goes out, so a refused path is an ordinary error answer.
      const lines = transfers.manifest(user, req.body.paths);
      const first = await lines.next();
      async function* all() {
        if (!first.done) yield first.value;
        yield* lines;
      }
      return reply.type('application/x-ndjson').send(Readable.from(all()));
    },
  );
  app.get('/fastrans/read.action', { schema: { tags, querystring: TransferReadQuery } }, async (req, reply) =>
    transfers.read(req, reply, auth.user(req), req.query.path),
  );
  app.post(
    '/fastrans/readBatch.action',
    { bodyLimit: 16 * 1024 * 1024, schema: { tags, body: TransferReadBatchBody } },
    async (req, reply) =>
      reply
        .type('application/x-tar')
        .send(Readable.from(transfers.readBatch(auth.user(req), req.body.paths))),
  );
  app.post(
    '/fastrans/sha256.action',
    { schema: { tags, body: TransferShaBody, response: { 200: TransferShaResponse } } },
    async (req) => ok(await transfers.sha256(auth.user(req), req.body.path)),
  );
}
