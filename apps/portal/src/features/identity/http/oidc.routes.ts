import { Type } from 'typebox';
import { OidcCallbackQuery, SsoRedirectQuery } from '@hpc/contracts';
import { isAppError, requestOrigin, type AppServer } from '@hpc/server-kit';
import type { FastifyRequest } from 'fastify';
import type { PortalDeps } from '../../../deps';
import type { IdentityServices } from '../identity.services';
import { SSO_REDIRECT_PATH } from './auth.routes';
import type { OidcService } from '../services/oidc.service';
import type { SessionHttp } from './session-http';

const tags = ['identity'];
const CALLBACK_PATH = '/api/auth/loginSsoCallback.action';
const STATE_COOKIE = 'hpc_sso_state';
const redirectOnly = { 302: Type.Null() };

/** A same-site path to land on after login; anything else (absolute URLs, //host, \\host) becomes "/". */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return '/';
  return target;
}

/**
 * Browser navigations of single sign-on (spec §7 "/api/auth/loginSsoRedirect.action"): the web sends the user here
 * on login or when the session timed out. Without SSO configured it lands on the web's own login page, so the web
 * can always use this one call. Failures of the callback land on the login page with `?ssoError=<code>`.
 */
export function oidcRoutes(
  app: AppServer,
  deps: PortalDeps,
  services: IdentityServices,
  http: SessionHttp,
  oidc: OidcService,
): void {
  const base = (req: FastifyRequest) => deps.config.PUBLIC_URL.replace(/\/+$/, '') || requestOrigin(req);
  const stateCookie = (req: FastifyRequest) =>
    ({
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.PUBLIC_URL.startsWith('https:') || req.protocol === 'https',
      maxAge: 600,
    }) as const;

  app.get(
    SSO_REDIRECT_PATH,
    { schema: { tags, querystring: SsoRedirectQuery, response: redirectOnly } },
    async (req, reply) => {
      const redirect = safeRedirect(req.query.redirect);
      if (!oidc.enabled) return reply.redirect(`/login?redirect=${encodeURIComponent(redirect)}`, 302);
      const { url, state } = await oidc.begin(redirect, `${base(req)}${CALLBACK_PATH}`);
      reply.setCookie(STATE_COOKIE, state, stateCookie(req));
      return reply.redirect(url, 302);
    },
  );

  app.get(
    CALLBACK_PATH,
    { schema: { tags, querystring: OidcCallbackQuery, response: redirectOnly } },
    async (req, reply) => {
      reply.clearCookie(STATE_COOKIE, stateCookie(req));
      const query = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1 || req.url.length));
      try {
        const { user, redirectTo } = await oidc.complete(query, req.cookies[STATE_COOKIE]);
        const session = await services.sessions.create(user.id, 'oidc', http.meta(req));
        http.setCookies(req, reply, session);
        return reply.redirect(redirectTo, 302);
      } catch (e) {
        if (!isAppError(e)) throw e;
        req.log.warn({ code: e.code, msg: e.message }, 'single sign-on failed');
        return reply.redirect(`/login?ssoError=${encodeURIComponent(e.code)}`, 302);
      }
    },
  );
}
