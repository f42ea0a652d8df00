import { FileRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { FilesService } from './files.service';

export function filesRoutes(app: EfileApp, { auth }: EfileContext, files: FilesService): void {
  addRoute(app, FileRoutes.list, async (req) => {
    const q = req.query;
    const pageNum = q.pageNum ?? 1;
    const pageSize = q.pageSize ?? 20;
    const r = await files.list(auth.user(req), {
      path: q.path,
      pageNum,
      pageSize,
      sort: q.sort ?? 'name',
      order: q.order ?? 'asc',
      keyword: q.keyword,
      showHidden: q.showHidden,
    });
    return ok({ ...r, pageNum, pageSize });
  });

  addRoute(app, FileRoutes.mkdir, async (req) =>
    ok({ path: await files.mkdir(auth.user(req), req.body.path) }),
  );
  addRoute(app, FileRoutes.touch, async (req) =>
    ok({ path: await files.touch(auth.user(req), req.body.path) }),
  );
  addRoute(app, FileRoutes.remove, async (req) =>
    ok({ removed: await files.remove(auth.user(req), req.body.paths, req.body.recursive ?? false) }),
  );
  addRoute(app, FileRoutes.rename, async (req) =>
    ok({ path: await files.rename(auth.user(req), req.body.path, req.body.newName) }),
  );
  addRoute(app, FileRoutes.exist, async (req) => ok(await files.exist(auth.user(req), req.body.path)));
  addRoute(app, FileRoutes.initInfo, { config: { allowDisabled: true } }, async (req) =>
    ok(files.initInfo(auth.user(req))),
  );
  addRoute(app, FileRoutes.tree, async (req) => ok(await files.tree(auth.user(req), req.query.path)));
  addRoute(app, FileRoutes.checkPermission, async (req) => {
    const b = req.body;
    const action = b.share ? 'read' : b.permissionAction;
    return ok({ allowded: await files.checkPermission(auth.user(req), b.path, action) });
  });
}
