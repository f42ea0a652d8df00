import { installFormParser, type AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { accountRoutes } from './http/account.routes';
import { adminRoutes } from './http/admin.routes';
import { authRoutes, sessionRoutes } from './http/auth.routes';
import { clusterManagerRoutes, clusterRoutes, publicClusterRoutes } from './http/cluster.routes';
import { oidcRoutes } from './http/oidc.routes';
import { routeGroup } from './http/route-groups';
import { createSessionHttp } from './http/session-http';
import { createIdentityServices } from './identity.services';
import { createOidcService } from './services/oidc.service';

// What other features, the app and the admin CLI use of identity: nothing else of this folder is imported from
// outside it (eslint.config.js).
export { createIdentityServices, type IdentityServices } from './identity.services';
export { createSessionHttp, type SessionHttp } from './http/session-http';
export { routeGroup, type Access } from './http/route-groups';
export { seedIdentity } from './identity.seed';
export { toAdminUser } from './data/user.model';
export type { LiveSession } from './services/session.service';
export type { UserRepository } from './data/user.repository';

/** Expired sessions are deleted now and then rather than on every request. */
const SWEEP_MS = 15 * 60_000;

/**
 * Identity, clusters and accounts: sessions and login (password and OpenID Connect), per-cluster tokens, the
 * cluster and account calls, and admin calls, in three route groups by who may call them. Each group carries its
 * own request-time and CSRF checks (`http/route-groups.ts`, docs/SECURITY.md): nothing is installed on the root,
 * so the public catalogue pays for none of it.
 */
export async function identityFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const services = createIdentityServices(deps);
  const http = createSessionHttp({ sessions: services.sessions, config: deps.config });
  const oidc = createOidcService({ config: deps.config, kv: deps.kv, users: services.users });

  const sweep = setInterval(() => {
    services.sessions.sweep().catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
  }, SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  await app.register(async (scope: AppServer) => {
    // Browsers post forms (spec §7: "post and delete use form-type content unless JSON is stated"); the parser
    // stays inside this plugin so other features may install their own.
    installFormParser(scope);
    await scope.register(
      routeGroup(http, 'public', (s) => {
        authRoutes(s, deps, services, http);
        oidcRoutes(s, deps, services, http, oidc);
        publicClusterRoutes(s, services.clusters);
      }),
    );
    await scope.register(
      routeGroup(http, 'user', (s) => {
        sessionRoutes(s, services, http);
        clusterRoutes(s, services.clusters, http);
        accountRoutes(s, services.accounts, http);
      }),
    );
    await scope.register(
      routeGroup(http, 'manager', (s) => {
        clusterManagerRoutes(s, services.clusters);
        adminRoutes(s, services);
      }),
    );
  });
}

/**
 * The current rights of a portal user on one cluster, for efile instances in the same process (the all-in-one
 * start): what scaled-out instances ask `GET /api/internal/efile/owner-rights` for.
 */
export function ownerRightsLookup(deps: PortalDeps) {
  const { tokens } = createIdentityServices(deps);
  return (clusterId: string) => (sub: string) => tokens.currentRights(sub, clusterId);
}
