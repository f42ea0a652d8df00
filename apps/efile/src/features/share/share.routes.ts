import { ShareRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { DownloadService } from '../download';
import type { FsScope } from '../../userfs/types';
import type { ShareService } from './share.service';

export function shareRoutes(
  app: EfileApp,
  { auth, deps }: EfileContext,
  shares: ShareService,
  downloads: DownloadService,
): void {
  addRoute(app, ShareRoutes.open, async (req) =>
    ok(await shares.open(auth.user(req), req.query.path, req.query.validDays, req.query.password)),
  );
  addRoute(app, ShareRoutes.close, async (req) =>
    ok({ closed: await shares.close(auth.user(req), req.query) }),
  );
  addRoute(app, ShareRoutes.list, async (req) =>
    ok(await shares.list(auth.user(req), req.query.pageNum ?? 1, req.query.pageSize ?? 20)),
  );
  addRoute(app, ShareRoutes.includes, async (req) =>
    ok(await shares.includes(auth.user(req), req.query.paths)),
  );

  // Anonymous recipient calls: no cluster token; the extraction code buys a short-lived share token.
  const anonymous = { efileAuth: 'none' as const };
  addRoute(app, ShareRoutes.publicInfo, { config: anonymous }, async (req) =>
    ok(await shares.publicInfo(req.query.shareId)),
  );
  addRoute(app, ShareRoutes.publicVerify, { config: anonymous }, async (req) =>
    ok(await shares.verify(req.body.shareId, req.body.password, req.ip)),
  );
  addRoute(app, ShareRoutes.publicList, { config: anonymous }, async (req) => {
    const q = req.query;
    const { target, scope, row } = await shares.access(q.shareToken, q.path);
    const pageNum = q.pageNum ?? 1;
    const pageSize = q.pageSize ?? 20;
    // Listed by the owner's worker in unix mode, inside the shared item only.
    const r = await deps.userfs.list(scope, target.clusterPath, {
      pageNum,
      pageSize,
      sort: q.sort ?? 'name',
      order: q.order ?? 'asc',
    });
    // Recipients see paths relative to the shared item, never the owner's home layout.
    const rel = (p: string) => p.slice(row.path.length) || '/';
    return ok({
      path: rel(target.clusterPath),
      list: r.list.map((e) => ({ ...e, path: rel(e.path) })),
      total: r.total,
      pageNum,
      pageSize,
    });
  });
  addRoute(app, ShareRoutes.publicDownload, { config: anonymous }, async (req, reply) => {
    const q = req.query;
    const rels = q.paths && q.paths.length > 0 ? q.paths : [q.path ?? ''];
    const items = [];
    let scope: FsScope = { cun: '', roots: [] };
    for (const rel of rels) {
      const a = await shares.access(q.shareToken, rel);
      scope = a.scope;
      items.push(a.target);
    }
    return downloads.sendSelection(req, reply, scope, items);
  });
}
