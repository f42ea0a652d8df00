import {
  CredentialRevokeBody,
  EmptyResponse,
  IssuedCredentialsResponse,
  PortalCodes,
  SessionEndBody,
  SessionsEndedResponse,
  UserSessionsResponse,
} from '@hpc/contracts';
import { AppError, ok, type AppServer } from '@hpc/server-kit';
import type { IdentityServices, SessionHttp } from '../identity';

const tags = ['user centre'];

/**
 * The user's own sessions and what was issued to them today (issue 25 §1.4): list and end sessions, list and revoke
 * the fast-transfer day tokens and Linux commands. Each call is keyed by the session's user, never by a parameter:
 * an id of someone else's session or credential is simply not found.
 */
export function userSessionRoutes(app: AppServer, identity: IdentityServices, http: SessionHttp): void {
  const { sessions, credentials } = identity;

  app.get('/api/user/sessions', { schema: { tags, response: { 200: UserSessionsResponse } } }, async (req) =>
    ok(await sessions.list(http.live(req))),
  );

  app.post(
    '/api/user/sessions/end',
    { schema: { tags, body: SessionEndBody, response: { 200: SessionsEndedResponse } } },
    async (req, reply) => {
      const live = http.live(req);
      if (!(await sessions.endOne(live.user.id, req.body.id))) throw new AppError(PortalCodes.notFound);
      // Signing out this very session is a logout: its cookies go too.
      if (req.body.id === live.sid) http.clearCookies(req, reply);
      return ok({ ended: 1 });
    },
  );

  app.post(
    '/api/user/sessions/endOthers',
    { schema: { tags, response: { 200: SessionsEndedResponse } } },
    async (req) => ok({ ended: await sessions.endOthers(http.live(req)) }),
  );

  app.get(
    '/api/user/credentials',
    { schema: { tags, response: { 200: IssuedCredentialsResponse } } },
    async (req) => ok(await credentials.list(http.live(req).user.id)),
  );

  app.post(
    '/api/user/credentials/revoke',
    { schema: { tags, body: CredentialRevokeBody, response: { 200: EmptyResponse } } },
    async (req) => {
      if (!(await credentials.revoke(http.live(req).user.id, req.body.id)))
        throw new AppError(PortalCodes.notFound);
      return ok(null);
    },
  );
}
