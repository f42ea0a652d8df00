import { ClusterRoutes } from '@hpc/contracts';
import { addRoute, ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from './session-http';
import type { ClusterService } from '../services/cluster.service';

/** The cluster and service calls of spec §7 for a logged-in user (a `user` route group), at the paths clients use. */
export function clusterRoutes(app: AppServer, clusters: ClusterService, http: SessionHttp): void {
  addRoute(app, ClusterRoutes.usersDetail, async (req) =>
    ok(await clusters.computeUsersOf(http.live(req).user.id)),
  );

  addRoute(app, ClusterRoutes.baseInfo, async (req) => ok(await clusters.baseInfoOf(http.live(req).user.id)));

  addRoute(app, ClusterRoutes.canApply, async (req) =>
    ok(await clusters.canApply(http.live(req).user.id, req.query.fromHost)),
  );

  addRoute(
    app,
    ClusterRoutes.accessPaths,
    {
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

  addRoute(app, ClusterRoutes.efileInfo, async (req) => {
    const live = http.live(req);
    return ok(await clusters.efileInfo(live.user.id, req.query.clusterId || undefined));
  });
}

/** The cluster calls anyone may make. */
export function publicClusterRoutes(app: AppServer, clusters: ClusterService): void {
  // Anonymous on purpose: the recipient of a share link has no session, and needs the cluster's efile instances.
  addRoute(app, ClusterRoutes.publicEfileUrls, async (req, reply) => {
    void reply.header('cache-control', 'public, max-age=60');
    return ok({ urls: await clusters.publicEfileUrls(req.query.clusterId) });
  });
}

/** The cluster calls of managers (a `manager` route group). */
export function clusterManagerRoutes(app: AppServer, clusters: ClusterService): void {
  addRoute(app, ClusterRoutes.all, async (req) => ok(await clusters.list(req.query)));
}
