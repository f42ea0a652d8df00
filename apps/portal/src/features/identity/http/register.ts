import { installFormParser, type AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../../deps';
import { createOidcService } from '../services/oidc.service';
import { accountRoutes } from './account.routes';
import { adminRoutes } from './admin.routes';
import { authRoutes, sessionRoutes } from './auth.routes';
import { clusterManagerRoutes, clusterRoutes, publicClusterRoutes } from './cluster.routes';
import { oidcRoutes } from './oidc.routes';
import { routeGroup } from './route-groups';

/** Expired sessions are deleted now and then rather than on every request. */
const SWEEP_MS = 15 * 60_000;

/**
 * Identity, clusters and accounts: sessions and login (password and OpenID Connect), per-cluster tokens, the
 * cluster and account calls, and admin calls, in three route groups by who may call them. Each group carries its
 * own request-time and CSRF checks (`http/route-groups.ts`, docs/SECURITY.md): nothing is installed on the root,
 * so the public catalogue pays for none of it.
 */
export async function registerIdentity(app: AppServer, deps: PortalDeps): Promise<void> {
  const { services, http } = app.identity;
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
