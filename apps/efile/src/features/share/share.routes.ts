import {
  IncludeShareQuery,
  IncludeShareResponse,
  ListResponse,
  PublicDownloadQuery,
  PublicListQuery,
  PublicShareInfoResponse,
  PublicShareQuery,
  ShareCloseQuery,
  ShareCloseResponse,
  ShareListQuery,
  ShareListResponse,
  ShareOpenQuery,
  ShareOpenResponse,
  ShareVerifyBody,
  ShareVerifyResponse,
} from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { DownloadService } from '../download/download.service';
import type { FsScope } from '../../userfs/types';
import type { ShareService } from './share.service';

export function shareRoutes(
  app: EfileApp,
  { auth, deps }: EfileContext,
  shares: ShareService,
  downloads: DownloadService,
): void {
  app.get(
    '/share/open.action',
    { schema: { querystring: ShareOpenQuery, response: { 200: ShareOpenResponse } } },
    async (req) =>
      ok(await shares.open(auth.user(req), req.query.path, req.query.validDays, req.query.password)),
  );
  app.get(
    '/share/close.action',
    { schema: { querystring: ShareCloseQuery, response: { 200: ShareCloseResponse } } },
    async (req) => ok({ closed: await shares.close(auth.user(req), req.query) }),
  );
  app.get(
    '/share/list.action',
    { schema: { querystring: ShareListQuery, response: { 200: ShareListResponse } } },
    async (req) => ok(await shares.list(auth.user(req), req.query.pageNum ?? 1, req.query.pageSize ?? 20)),
  );
  app.get(
    '/share/isIncludeShareFile.action',
    { schema: { querystring: IncludeShareQuery, response: { 200: IncludeShareResponse } } },
    async (req) => ok(await shares.includes(auth.user(req), req.query.paths)),
  );

  // Anonymous recipient calls: no cluster token; the extraction code buys a short-lived share token.
  const anonymous = { efileAuth: 'none' as const };
  app.get(
    '/share/public/info.action',
    {
      config: anonymous,
      schema: { querystring: PublicShareQuery, response: { 200: PublicShareInfoResponse } },
    },
    async (req) => ok(await shares.publicInfo(req.query.shareId)),
  );
  app.post(
    '/share/public/verify.action',
    { config: anonymous, schema: { body: ShareVerifyBody, response: { 200: ShareVerifyResponse } } },
    async (req) => ok(await shares.verify(req.body.shareId, req.body.password, req.ip)),
  );
  app.get(
    '/share/public/list.action',
    { config: anonymous, schema: { querystring: PublicListQuery, response: { 200: ListResponse } } },
    async (req) => {
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
    },
  );
  app.get(
    '/share/public/download.action',
    { config: anonymous, schema: { querystring: PublicDownloadQuery } },
    async (req, reply) => {
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
    },
  );
}
