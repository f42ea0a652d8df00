import type { AppServer } from '@hpc/server-kit';
import type { FastifyRequest } from 'fastify';
import type { SessionHttp } from './session-http';

/**
 * Who may call the routes of a group: anyone, a logged-in user, or a manager. Declared once per group instead of a
 * `requireUser`/`requireManager` call at the top of every handler (as fastify/demo's autohooks do per folder).
 */
export type Access = 'public' | 'user' | 'manager';

/**
 * A route group: an encapsulated plugin whose `preHandler` hook checks `access` for every route registered inside
 * it, and only for those (a public route next door pays for no session look-up). preHandler runs where the
 * handlers' own checks ran before: after body validation, so an invalid body still gets its 1004 first. Routes of
 * a `user` or `manager` group read the checked session with `http.live(req)`.
 */
export function routeGroup(http: SessionHttp, access: Access, routes: (scope: AppServer) => void) {
  return async (scope: AppServer): Promise<void> => {
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
