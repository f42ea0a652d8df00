import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import { CSRF_COOKIE, PortalCodes, SESSION_COOKIE } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { PortalConfig } from '../../../config';
import type { LiveSession, NewSession, SessionService } from '../services/session.service';
import { PortalText } from '../../../messages';

/**
 * The HTTP side of sessions: reads the session cookie once per request (cached, so the CSRF hook and the route
 * share one lookup), guards routes, and sets or clears the cookies. The session cookie is HttpOnly and
 * SameSite=Lax; the CSRF cookie is readable by the page. Both are Secure when the portal is served over https
 * (PUBLIC_URL https, or the request arrived over https, seen through X-Forwarded-Proto with TRUST_PROXY).
 */
export function createSessionHttp(deps: { sessions: SessionService; config: PortalConfig }) {
  const { sessions, config } = deps;
  const cache = new WeakMap<FastifyRequest, Promise<LiveSession | null>>();
  /** Sessions a route group's guard has checked, for the route's synchronous `live(req)`. */
  const checked = new WeakMap<FastifyRequest, LiveSession>();

  const secure = (req: FastifyRequest) => config.PUBLIC_URL.startsWith('https:') || req.protocol === 'https';

  const http = {
    config,

    current(req: FastifyRequest): Promise<LiveSession | null> {
      let live = cache.get(req);
      if (!live) {
        live = sessions.resolve(req.cookies[SESSION_COOKIE]);
        cache.set(req, live);
      }
      return live;
    },

    /** The live session, or 401 with code "401" (missing or expired session: the web sends the user to login). */
    async requireUser(req: FastifyRequest): Promise<LiveSession> {
      const live = await http.current(req);
      if (!live) throw new AppError(PortalCodes.unauthorized);
      checked.set(req, live);
      return live;
    },

    /** The live session of a manager, else 401/403. */
    async requireManager(req: FastifyRequest): Promise<LiveSession> {
      const live = await http.requireUser(req);
      if (live.user.role !== 'manager') throw new AppError(PortalCodes.forbidden, PortalText.managerOnly);
      return live;
    },

    /**
     * The session of a route in a `user` or `manager` route group (`route-groups.ts`), whose guard has checked it
     * before the handler runs. A route outside such a group has none: that is a programming error, answered 401.
     */
    live(req: FastifyRequest): LiveSession {
      const live = checked.get(req);
      if (!live) throw new AppError(PortalCodes.unauthorized);
      return live;
    },

    setCookies(req: FastifyRequest, reply: FastifyReply, session: NewSession): void {
      // The cookie may live as long as the session's absolute lifetime; the database decides when it is dead.
      const maxAge = config.SESSION_MAX_HOURS * 3600;
      const base = { path: '/', sameSite: 'lax', secure: secure(req), maxAge } as const;
      reply.setCookie(SESSION_COOKIE, session.token, { ...base, httpOnly: true });
      reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...base, httpOnly: false });
    },

    clearCookies(req: FastifyRequest, reply: FastifyReply): void {
      const base = { path: '/', sameSite: 'lax', secure: secure(req) } as const;
      reply.clearCookie(SESSION_COOKIE, { ...base, httpOnly: true });
      reply.clearCookie(CSRF_COOKIE, base);
    },

    /** Client address and agent recorded with a new session (shown to operators, never trusted). */
    meta: (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }),
  };
  return http;
}

export type SessionHttp = ReturnType<typeof createSessionHttp>;
