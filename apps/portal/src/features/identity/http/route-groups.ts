import { csrfCheck, isStateChanging, requestTimeCheck, type AppServer } from '@hpc/server-kit';
import type { FastifyRequest } from 'fastify';
import type { SessionHttp } from './session-http';

/**
 * Who may call the routes of a group: anyone, a logged-in user, or a manager. Declared once per group instead of a
 * `requireUser`/`requireManager` call at the top of every handler (as fastify/demo's autohooks do per folder).
 */
export type Access = 'public' | 'user' | 'manager';

/**
 * The path the route was registered under, not `req.url`: the router matches the percent-decoded path, so a test of
 * the raw text would let `/%61pi/...` reach an /api/ route unchecked. These hooks run only for the group's own
 * routes, so a route is always set.
 */
const pathOf = (req: FastifyRequest) => req.routeOptions.url ?? '';
const isApi = (req: FastifyRequest) => pathOf(req).startsWith('/api/');
/**
 * The portal's own E-File calls under spec §7's model-zoo prefix (fast transfer's login, permission check and relay):
 * session-bound like /api/, so their state-changing calls carry the CSRF header too.
 */
const isEfileProxy = (req: FastifyRequest) => pathOf(req).startsWith('/model-zoo/proxy/efile/');
/** Calls that must carry the request-time header: state-changing /api/ calls and the current-user call. */
const needsRequestTime = (req: FastifyRequest) =>
  isApi(req) && (isStateChanging(req) || pathOf(req) === '/api/user/info');
/** Calls whose request-time header, when sent, is checked: everything the web sends about identity. */
const checksRequestTime = (req: FastifyRequest) =>
  isApi(req) || pathOf(req) === '/model-zoo/proxy/efile/info';

/**
 * A route group: an encapsulated plugin whose hooks run for the routes registered inside it, and only for those
 * (the public catalogue next door pays for no session look-up and no check):
 * - onRequest: the request-time check and CSRF protection of docs/SECURITY.md, for the /api/ calls (and the E-File
 *   info call) of the group, as they applied to every such route when they were root hooks; CSRF also for the
 *   state-changing calls under /model-zoo/proxy/efile/ (fast transfer's, which had a check of their own);
 * - preHandler: `access`. It runs where the handlers' own checks ran before, after body validation, so an
 *   invalid body still gets its 1004 first. Routes of a `user` or `manager` group read the checked session with
 *   `http.live(req)`.
 */
export function routeGroup(http: SessionHttp, access: Access, routes: (scope: AppServer) => void) {
  return async (scope: AppServer): Promise<void> => {
    // The answers of the portal's calls carry session cookies, cluster and day tokens and the user's own data: no
    // browser or shared cache keeps them (a shared workstation's disk cache after the tab is closed). Set first, so
    // a public answer meant to be cached (the signing keys, the cluster list) still sets its own.
    scope.addHook('onRequest', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
    });
    if (http.config.REQUEST_TIME_CHECK) {
      // Wall-clock against the browser's clock, deliberately not deps.now (the sessions' clock that tests move).
      const check = requestTimeCheck({ required: needsRequestTime });
      scope.addHook('onRequest', async (req) => (checksRequestTime(req) ? check(req) : undefined));
    }
    scope.addHook(
      'onRequest',
      csrfCheck({
        // The login has no session yet: it is protected by SameSite and the Origin check instead.
        applies: (req) =>
          (isApi(req) || isEfileProxy(req)) && isStateChanging(req) && pathOf(req) !== '/api/auth/login',
        expected: async (req) => (await http.current(req))?.session.csrf_token ?? null,
      }),
    );
    if (access === 'user') {
      scope.addHook('preHandler', async (req: FastifyRequest) => {
        await http.requireUser(req);
      });
    } else if (access === 'manager') {
      scope.addHook('preHandler', async (req: FastifyRequest) => {
        await http.requireManager(req);
      });
    }
    routes(scope);
  };
}
