import { DownloadCheckBody, DownloadCheckResponse, DownloadQuery, MultiDownloadQuery } from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { DownloadService } from './download.service';

/** Browser downloads: `?ticket=` (or `?token=`) because the browser opens these URLs itself (http/auth.ts). */
export function downloadRoutes(app: EfileApp, { auth }: EfileContext, downloads: DownloadService): void {
  app.get(
    '/download.action',
    { config: { browserGet: 'download' }, schema: { querystring: DownloadQuery } },
    async (req, reply) => downloads.download(req, reply, auth.user(req), req.query.path),
  );
  app.post(
    '/downloadCheck.action',
    { schema: { body: DownloadCheckBody, response: { 200: DownloadCheckResponse } } },
    async (req) => ok(await downloads.check(auth.user(req), req.body.paths, req.body.urlLimit)),
  );
  app.get(
    '/multiDownload.action',
    { config: { browserGet: 'multiDownload' }, schema: { querystring: MultiDownloadQuery } },
    async (req, reply) => downloads.multi(req, reply, auth.user(req), req.query),
  );
}
