import {
  AuthRoutes,
  CSRF_COOKIE,
  CSRF_HEADER,
  OWNER_RIGHTS_PATH,
  OwnerRightsQuery,
  OwnerRightsResponse,
  PortalCodes,
  PublicJwks,
  REQUEST_TIME_HEADER,
  SESSION_COOKIE,
  UserRoutes,
} from '@hpc/contracts';
import crypto from 'node:crypto';
import { AppError, addRoute, assertSameOrigin, ok, type AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../../deps';
import type { IdentityServices } from '../identity.services';
import type { SessionHttp } from './session-http';

const tags = ['identity'];
export const SSO_REDIRECT_PATH = '/api/auth/loginSsoRedirect.action';

/** The calls anyone may make: login, logout, the JWKS, the login page's config and efile's owner-rights question. */
export function authRoutes(
  app: AppServer,
  deps: PortalDeps,
  services: IdentityServices,
  http: SessionHttp,
): void {
  const { auth, sessions } = services;
  // A login must come from a page of the portal itself (login CSRF): its public origin, or the request's own.
  const origins = deps.config.PUBLIC_URL ? [new URL(deps.config.PUBLIC_URL).origin] : [];

  addRoute(app, AuthRoutes.config, async () =>
    ok({
      sso: Boolean(deps.config.OIDC_ISSUER && deps.config.OIDC_CLIENT_ID),
      ssoLoginUrl: SSO_REDIRECT_PATH,
      csrfCookie: CSRF_COOKIE,
      csrfHeader: CSRF_HEADER,
      requestTimeHeader: REQUEST_TIME_HEADER,
    }),
  );

  addRoute(app, AuthRoutes.login, async (req, reply) => {
    assertSameOrigin(req, origins);
    const { user, session } = await auth.login(req.body.username, req.body.password, http.meta(req));
    http.setCookies(req, reply, session);
    return ok(await auth.currentUser(user, session, 'password'));
  });

  addRoute(app, AuthRoutes.logout, async (req, reply) => {
    // Idempotent: an expired or unknown session is simply gone already.
    await sessions.destroy(req.cookies[SESSION_COOKIE]);
    http.clearCookies(req, reply);
    return ok(null);
  });

  // efile instances (scaled out) ask here for the current rights of a share's owner or a Linux command's user: a
  // service call with the shared secret, no session. Without a configured secret the call does not exist.
  const secret = deps.config.EFILE_SERVICE_SECRET;
  app.get(
    OWNER_RIGHTS_PATH,
    { schema: { tags, querystring: OwnerRightsQuery, response: { 200: OwnerRightsResponse } } },
    async (req) => {
      if (!secret) throw new AppError(PortalCodes.notFound);
      const given = crypto
        .createHash('sha256')
        .update(req.headers.authorization ?? '')
        .digest();
      const expected = crypto.createHash('sha256').update(`Bearer ${secret}`).digest();
      if (!crypto.timingSafeEqual(given, expected)) throw new AppError(PortalCodes.forbidden);
      return ok(await services.tokens.currentRights(req.query.sub, req.query.clusterId));
    },
  );

  // Raw JWKS (RFC 7517), not the envelope: efile and any JOSE library read it as it is.
  app.get('/api/auth/jwks.json', { schema: { tags, response: { 200: PublicJwks } } }, async (_req, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return deps.signingKeys.jwks();
  });
}

/** The calls about the logged-in user's own session (a `user` route group). */
export function sessionRoutes(app: AppServer, services: IdentityServices, http: SessionHttp): void {
  const { auth, tokens } = services;

  addRoute(app, AuthRoutes.refresh, async (req) =>
    ok({ tokenList: await tokens.tokenList(http.live(req).user.id, http.live(req).sid) }),
  );

  addRoute(app, UserRoutes.info, async (req) => ok(await auth.fromLive(http.live(req))));

  addRoute(app, UserRoutes.changePassword, async (req) => {
    const live = http.live(req);
    const endedSessions = await auth.changeOwnPassword(
      live.user,
      { oldPassword: req.body.oldPassword, newPassword: req.body.newPassword, keepSession: live.session.id },
      http.meta(req).ip,
    );
    return ok({ endedSessions });
  });
}
