import {
  CheckPermissionBody,
  CheckPermissionResponse,
  CreateBody,
  ExistBody,
  ExistResponse,
  InitInfoResponse,
  ListQuery,
  ListResponse,
  PathResponse,
  RemoveBody,
  RemoveResponse,
  RenameBody,
  TreeQuery,
  TreeResponse,
} from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { FilesService } from './files.service';

export function filesRoutes(app: EfileApp, { auth }: EfileContext, files: FilesService): void {
  app.get(
    '/list.action',
    { schema: { querystring: ListQuery, response: { 200: ListResponse } } },
    async (req) => {
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
    },
  );

  app.post('/mkdir.action', { schema: { body: CreateBody, response: { 200: PathResponse } } }, async (req) =>
    ok({ path: await files.mkdir(auth.user(req), req.body.path) }),
  );
  app.post(
    '/touchFile.action',
    { schema: { body: CreateBody, response: { 200: PathResponse } } },
    async (req) => ok({ path: await files.touch(auth.user(req), req.body.path) }),
  );
  app.post(
    '/remove.action',
    { schema: { body: RemoveBody, response: { 200: RemoveResponse } } },
    async (req) =>
      ok({ removed: await files.remove(auth.user(req), req.body.paths, req.body.recursive ?? false) }),
  );
  app.post('/rename.action', { schema: { body: RenameBody, response: { 200: PathResponse } } }, async (req) =>
    ok({ path: await files.rename(auth.user(req), req.body.path, req.body.newName) }),
  );
  app.post('/exist.action', { schema: { body: ExistBody, response: { 200: ExistResponse } } }, async (req) =>
    ok(await files.exist(auth.user(req), req.body.path)),
  );
  app.get(
    '/initInfo.action',
    { config: { allowDisabled: true }, schema: { response: { 200: InitInfoResponse } } },
    async (req) => ok(files.initInfo(auth.user(req))),
  );
  app.get(
    '/treeChildrenList.action',
    { schema: { querystring: TreeQuery, response: { 200: TreeResponse } } },
    async (req) => ok(await files.tree(auth.user(req), req.query.path)),
  );
  app.post(
    '/checkPermission.action',
    { schema: { body: CheckPermissionBody, response: { 200: CheckPermissionResponse } } },
    async (req) => {
      const b = req.body;
      const action = b.share ? 'read' : b.permissionAction;
      return ok({ allowded: await files.checkPermission(auth.user(req), b.path, action) });
    },
  );
}
