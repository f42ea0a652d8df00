import { PreviewRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { PreviewService } from './preview.service';

export function previewRoutes(app: EfileApp, { auth, deps }: EfileContext, preview: PreviewService): void {
  addRoute(app, PreviewRoutes.check, async (req) => ok(await preview.check(auth.user(req), req.body.path)));
  addRoute(app, PreviewRoutes.text, async (req) => ok(await preview.read(auth.user(req), req.body.path)));
  // The edited text travels in the body: allow the preview limit plus JSON/form overhead.
  addRoute(
    app,
    PreviewRoutes.edit,
    { bodyLimit: deps.config.EFILE_PREVIEW_MAX_BYTES * 3 + 64 * 1024 },
    async (req) =>
      ok({
        path: await preview.edit(auth.user(req), req.body.path, req.body.content, req.body.expectedMtime),
      }),
  );
  addRoute(app, PreviewRoutes.raw, { config: { browserGet: 'previewRaw' } }, async (req, reply) =>
    preview.raw(req, reply, auth.user(req), req.query.path),
  );
}
