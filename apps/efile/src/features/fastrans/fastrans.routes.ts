import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { TransferRoutes as R } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { FastransService } from './fastrans.service';

// The body is the bytes themselves: never let a text/JSON parser take it, whatever type the client claims.
const rawBody = async (req: FastifyRequest) => {
  req.headers['content-type'] = 'application/octet-stream';
};

/** The body's declared length (a batch of known length is read whole), or null for a chunked body. */
const declaredLength = (req: FastifyRequest): number | null => {
  const n = Number(req.headers['content-length']);
  return req.headers['content-length'] !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : null;
};

/**
 * The fast-transfer client's calls, declared in contracts (`TransferRoutes`, fastrans.routes.ts) with the client's
 * side (`@hpc/api-client`'s fastrans.api.ts). Authenticated like every efile call (cluster token).
 */
export function fastransRoutes(app: EfileApp, { auth }: EfileContext, transfers: FastransService): void {
  addRoute(app, R.begin, { bodyLimit: 16 * 1024 * 1024 }, async (req) =>
    ok({ files: await transfers.begin(auth.user(req), req.body, req.headers['accept-language']) }),
  );
  // One call carries every unfinished file of a restarted task (up to 100,000 paths).
  addRoute(app, R.status, { bodyLimit: 64 * 1024 * 1024 }, async (req) =>
    ok({ files: await transfers.status(auth.user(req), req.body.files) }),
  );
  addRoute(app, R.range, { onRequest: rawBody }, async (req) =>
    ok(await transfers.range(auth.user(req), req.query.id, req.query.n, req.raw, req.query.sha256)),
  );
  addRoute(app, R.finalize, async (req) =>
    ok(await transfers.finalize(auth.user(req), req.body.id, req.body)),
  );
  addRoute(app, R.batch, { onRequest: rawBody }, async (req) =>
    ok(
      await transfers.batch(
        auth.user(req),
        req.query.path,
        req.query.overwrite ?? false,
        req.raw,
        declaredLength(req),
      ),
    ),
  );
  // A batch's worth of names and digests (at most 1,000 by the schema).
  addRoute(app, R.same, { bodyLimit: 4 * 1024 * 1024 }, async (req) =>
    ok({ same: await transfers.same(auth.user(req), req.body.path, req.body.files) }),
  );
  addRoute(app, R.cancel, async (req) =>
    ok({ cancelled: await transfers.cancel(auth.user(req), req.body.ids) }),
  );
  addRoute(app, R.manifest, { bodyLimit: 16 * 1024 * 1024 }, async (req, reply) => {
    const user = auth.user(req);
    // The first line is produced before the status goes out, so a refused path is an ordinary error answer.
    const lines = transfers.manifest(user, req.body.paths);
    const first = await lines.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* lines;
    }
    return reply.type('application/x-ndjson').send(Readable.from(all()));
  });
  addRoute(app, R.read, async (req, reply) => transfers.read(req, reply, auth.user(req), req.query.path));
  addRoute(app, R.readBatch, { bodyLimit: 16 * 1024 * 1024 }, async (req, reply) =>
    reply.type('application/x-tar').send(Readable.from(transfers.readBatch(auth.user(req), req.body.paths))),
  );
  addRoute(app, R.sha256, async (req) => ok(await transfers.sha256(auth.user(req), req.body.path)));
}
