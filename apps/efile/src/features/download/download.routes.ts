import { DownloadRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { DownloadService } from './download.service';

/** Browser downloads: `?ticket=` (or `?token=`) because the browser opens these URLs itself (http/auth.ts). */
export function downloadRoutes(app: EfileApp, { auth }: EfileContext, downloads: DownloadService): void {
  addRoute(app, DownloadRoutes.download, { config: { browserGet: 'download' } }, async (req, reply) =>
    downloads.download(req, reply, auth.user(req), req.query.path),
  );
  addRoute(app, DownloadRoutes.check, async (req) =>
    ok(await downloads.check(auth.user(req), req.body.paths, req.body.urlLimit)),
  );
  addRoute(app, DownloadRoutes.multi, { config: { browserGet: 'multiDownload' } }, async (req, reply) =>
    downloads.multi(req, reply, auth.user(req), req.query),
  );
}
