import { ModelRoutes } from '@hpc/contracts';
import { addRoute, ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from '../identity';
import type { ModelCopyService } from './model-copy.service';
import type { ModelFilesService } from './model-files';

/** `attachment; filename*=UTF-8''…`: any name, never a header injection. */
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** The model zoo's file view: public like the catalogue itself. */
export function modelFileRoutes(app: AppServer, files: ModelFilesService): void {
  addRoute(app, ModelRoutes.files, async (req) => ok(await files.list(req.params.id)));

  addRoute(app, ModelRoutes.file, async (req, reply) => {
    const file = await files.open(req.params.id, req.query.path);
    reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', file.size)
      .header('content-disposition', attachment(file.name))
      .header('x-content-type-options', 'nosniff')
      .header('etag', `"${file.sha256}"`)
      .header('cache-control', 'public, max-age=3600');
    return reply.send(file.stream);
  });
}

/**
 * "Copy to my E-File": a logged-in user's own files (a `user` route group; under /api/ so that the CSRF and
 * request-time checks apply).
 */
export function modelCopyRoutes(app: AppServer, copies: ModelCopyService, http: SessionHttp): void {
  addRoute(app, ModelRoutes.startCopy, async (req) => {
    const live = http.live(req);
    return ok(
      await copies.start(live.user.id, req.params.id, req.body, req.headers['accept-language'], live.sid),
    );
  });

  addRoute(app, ModelRoutes.copyProgress, async (req) =>
    ok(await copies.progress(http.live(req).user.id, req.params.jobId, req.headers['accept-language'])),
  );

  addRoute(app, ModelRoutes.cancelCopy, async (req) =>
    ok(await copies.cancel(http.live(req).user.id, req.params.jobId, req.headers['accept-language'])),
  );
}
