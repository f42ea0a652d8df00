import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { createIdentityServices, createSessionHttp, routeGroup } from '../identity';
import { userCentreRoutes } from './user-centre.routes';
import { createUserCentreService } from './user-centre.service';
import { createUserPreferenceRepository } from './user-preference.repository';

/**
 * The user centre's calls (profile, preferences). Registered after identity, whose root hooks (session, CSRF,
 * request-time header) cover these /api/ routes too.
 */
export async function usersFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const identity = createIdentityServices(deps);
  const http = createSessionHttp({ sessions: identity.sessions, config: deps.config });
  const service = createUserCentreService({
    users: identity.repos.users,
    preferences: createUserPreferenceRepository(deps.db),
    now: () => deps.now(),
  });
  await app.register(routeGroup(http, 'user', (scope) => userCentreRoutes(scope, service, http)));
}
