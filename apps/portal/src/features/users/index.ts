import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { routeGroup } from '../identity';
import { userCentreRoutes } from './user-centre.routes';
import { userSessionRoutes } from './user-sessions.routes';
import { createUserCentreService } from './user-centre.service';
import { createUserPreferenceRepository } from './user-preference.repository';

/**
 * The user centre's calls (profile, preferences, the user's sessions and issued credentials), in a `user` route
 * group (session, CSRF and request-time checks).
 */
export async function usersFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const { services: identity, http } = app.identity;
  const service = createUserCentreService({
    users: identity.repos.users,
    preferences: createUserPreferenceRepository(deps.db),
    now: () => deps.now(),
  });
  await app.register(
    routeGroup(http, 'user', (scope) => {
      userCentreRoutes(scope, service, http);
      userSessionRoutes(scope, identity, http);
    }),
  );
}
