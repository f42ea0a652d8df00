import { PortalCodes, UserRoutes } from '@hpc/contracts';
import { AppError, addRoute, ok, type AppServer } from '@hpc/server-kit';
import type { IdentityServices, SessionHttp } from '../identity';

/**
 * The user's own sessions and what was issued to them today (issue 25 §1.4): list and end sessions, list and revoke
 * the fast-transfer day tokens and Linux commands. Each call is keyed by the session's user, never by a parameter:
 * an id of someone else's session or credential is simply not found.
 */
export function userSessionRoutes(app: AppServer, identity: IdentityServices, http: SessionHttp): void {
  const { sessions, credentials } = identity;

  addRoute(app, UserRoutes.sessions, async (req) => ok(await sessions.list(http.live(req))));

  addRoute(app, UserRoutes.endSession, async (req, reply) => {
    const live = http.live(req);
    if (!(await sessions.endOne(live.user.id, req.body.id))) throw new AppError(PortalCodes.notFound);
    // Signing out this very session is a logout: its cookies go too.
    if (req.body.id === live.sid) http.clearCookies(req, reply);
    return ok({ ended: 1 });
  });

  addRoute(app, UserRoutes.endOtherSessions, async (req) =>
    ok({ ended: await sessions.endOthers(http.live(req)) }),
  );

  addRoute(app, UserRoutes.credentials, async (req) => ok(await credentials.list(http.live(req).user.id)));

  addRoute(app, UserRoutes.revokeCredential, async (req) => {
    if (!(await credentials.revoke(http.live(req).user.id, req.body.id)))
      throw new AppError(PortalCodes.notFound);
    return ok(null);
  });
}
