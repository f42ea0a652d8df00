import {
  csrfCheck,
  installFormParser,
  isStateChanging,
  requestTimeCheck,
  type AppServer,
} from '@hpc/server-kit';
import type { FastifyRequest } from 'fastify';
import type { PortalDeps } from '../../deps';
import { accountRoutes } from '../accounts/account.routes';
import { authRoutes } from '../auth/auth.routes';
import { oidcRoutes } from '../auth/oidc.routes';
import { createOidcService } from '../auth/oidc.service';
import { createSessionHttp } from '../auth/session-http';
import { clusterRoutes } from '../clusters/cluster.routes';
import { adminRoutes } from '../admin/admin.routes';
import { createIdentityServices } from './identity.services';

/** Expired sessions are deleted now and then rather than on every request. */
const SWEEP_MS = 15 * 60_000;

const pathOf = (req: FastifyRequest) => req.url.split('?', 1)[0]!;
const isApi = (req: FastifyRequest) => pathOf(req).startsWith('/api/');
/** Calls that must carry the request-time header: state-changing /api/ calls and the current-user call. */
const needsRequestTime = (req: FastifyRequest) =>
  isApi(req) && (isStateChanging(req) || pathOf(req) === '/api/user/info');
/** Calls whose request-time header, when sent, is checked: everything the web sends about identity. */
const checksRequestTime = (req: FastifyRequest) =>
  isApi(req) || pathOf(req) === '/model-zoo/proxy/efile/info';

/**
 * Identity, clusters and accounts: sessions and login (password and OpenID Connect), per-cluster tokens, the
 * cluster and account calls, and admin calls. Also installs, for every /api/ route registered from here on, the
 * request-time check and CSRF protection (docs/SECURITY.md).
 */
export async function identityFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const services = createIdentityServices(deps);
  const http = createSessionHttp({ sessions: services.sessions, config: deps.config });
  const oidc = createOidcService({ config: deps.config, kv: deps.kv, users: services.users });

  if (deps.config.REQUEST_TIME_CHECK) {
    // Wall-clock against the browser's clock, deliberately not deps.now (the sessions' clock that tests move).
    const check = requestTimeCheck({ required: needsRequestTime });
    app.addHook('onRequest', async (req) => (checksRequestTime(req) ? check(req) : undefined));
  }
  app.addHook(
    'onRequest',
    csrfCheck({
      // The login has no session yet: it is protected by SameSite and the Origin check instead.
      applies: (req) => isApi(req) && isStateChanging(req) && pathOf(req) !== '/api/auth/login',
      expected: async (req) => (await http.current(req))?.session.csrf_token ?? null,
    }),
  );

  const sweep = setInterval(() => {
    services.sessions.sweep().catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
  }, SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  await app.register(async (scope: AppServer) => {
    // Browsers post forms (spec §7: "post and delete use form-type content unless JSON is stated"); the parser
    // stays inside this plugin so other features may install their own.
    installFormParser(scope);
    authRoutes(scope, deps, services, http);
    oidcRoutes(scope, deps, services, http, oidc);
    clusterRoutes(scope, services.clusters, http);
    accountRoutes(scope, services.accounts, http);
    adminRoutes(scope, services, http);
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
