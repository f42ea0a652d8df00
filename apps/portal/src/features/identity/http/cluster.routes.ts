import {
  AccessPathBody,
  AccessPathResponse,
  CanApplyQuery,
  CanApplyResponse,
  ClusterListQuery,
  ClusterListResponse,
  ClusterUserBaseInfoResponse,
  ClusterUsersDetailResponse,
  EfileInfoQuery,
  EfileInfoResponse,
  PublicEfileUrlsQuery,
  PublicEfileUrlsResponse,
} from '@hpc/contracts';
import { ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from './session-http';
import type { ClusterService } from '../services/cluster.service';

const tags = ['clusters'];

/** The cluster and service calls of spec §7 for a logged-in user (a `user` route group), at the paths clients use. */
export function clusterRoutes(app: AppServer, clusters: ClusterService, http: SessionHttp): void {
  app.get(
    '/api/computeuser/queryClusterUsersDetail.action',
    { schema: { tags, response: { 200: ClusterUsersDetailResponse } } },
    async (req) => ok(await clusters.computeUsersOf(http.live(req).user.id)),
  );

  app.get(
    '/api/computeuser/queryClusterUserBaseInfo.action',
    { schema: { tags, response: { 200: ClusterUserBaseInfoResponse } } },
    async (req) => ok(await clusters.baseInfoOf(http.live(req).user.id)),
  );

  app.get(
    '/api/resource/queryCanApplyClusterInfos.action',
    { schema: { tags, querystring: CanApplyQuery, response: { 200: CanApplyResponse } } },
    async (req) => ok(await clusters.canApply(http.live(req).user.id, req.query.fromHost)),
  );

  app.post(
    '/api/resource/storage/queryMultiClusterAccessPath.action',
    {
      schema: { tags, body: AccessPathBody, response: { 200: AccessPathResponse } },
      // The body is optional (form or JSON): without it the answer covers all of the user's clusters.
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req) => {
      const live = http.live(req);
      return ok(await clusters.accessPaths(live.user.id, req.body?.clusterIds));
    },
  );

  app.get(
    '/model-zoo/proxy/efile/info',
    { schema: { tags, querystring: EfileInfoQuery, response: { 200: EfileInfoResponse } } },
    async (req) => {
      const live = http.live(req);
      return ok(await clusters.efileInfo(live.user.id, req.query.clusterId || undefined));
    },
  );
}

/** The cluster calls anyone may make. */
export function publicClusterRoutes(app: AppServer, clusters: ClusterService): void {
  // Anonymous on purpose: the recipient of a share link has no session, and needs the cluster's efile instances.
  app.get(
    '/api/center/publicEfileUrls.action',
    { schema: { tags, querystring: PublicEfileUrlsQuery, response: { 200: PublicEfileUrlsResponse } } },
    async (req, reply) => {
      void reply.header('cache-control', 'public, max-age=60');
      return ok({ urls: await clusters.publicEfileUrls(req.query.clusterId) });
    },
  );
}

/** The cluster calls of managers (a `manager` route group). */
export function clusterManagerRoutes(app: AppServer, clusters: ClusterService): void {
  app.get(
    '/api/center/queryCurClusterList.action',
    { schema: { tags, querystring: ClusterListQuery, response: { 200: ClusterListResponse } } },
    async (req) => ok(await clusters.list(req.query)),
  );
}
