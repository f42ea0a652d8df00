import {
  EditTextBody,
  PathQuery,
  PathResponse,
  PreviewCheckResponse,
  PreviewTextResponse,
  RawPreviewQuery,
} from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { PreviewService } from './preview.service';

export function previewRoutes(app: EfileApp, { auth, deps }: EfileContext, preview: PreviewService): void {
  app.post(
    '/previewTextFileCheck.action',
    { schema: { body: PathQuery, response: { 200: PreviewCheckResponse } } },
    async (req) => ok(await preview.check(auth.user(req), req.body.path)),
  );
  app.post(
    '/previewTextFile.action',
    { schema: { body: PathQuery, response: { 200: PreviewTextResponse } } },
    async (req) => ok(await preview.read(auth.user(req), req.body.path)),
  );
  app.post(
    '/editTextFile.action',
    // The edited text travels in the body: allow the preview limit plus JSON/form overhead.
    {
      bodyLimit: deps.config.EFILE_PREVIEW_MAX_BYTES * 3 + 64 * 1024,
      schema: { body: EditTextBody, response: { 200: PathResponse } },
    },
    async (req) =>
      ok({
        path: await preview.edit(auth.user(req), req.body.path, req.body.content, req.body.expectedMtime),
      }),
  );
  app.get(
    '/preview/raw.action',
    { config: { browserGet: 'previewRaw' }, schema: { querystring: RawPreviewQuery } },
    async (req, reply) => preview.raw(req, reply, auth.user(req), req.query.path),
  );
}
