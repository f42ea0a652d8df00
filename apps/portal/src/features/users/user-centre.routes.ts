import { UserRoutes } from '@hpc/contracts';
import { addRoute, ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from '../identity';
import type { UserCentreService } from './user-centre.service';

/** The user centre's calls: the profile and the preferences (the password change is `POST /api/user/password`). */
export function userCentreRoutes(app: AppServer, service: UserCentreService, http: SessionHttp): void {
  addRoute(app, UserRoutes.profile, async (req) => ok(await service.profile(http.live(req).user.id)));

  addRoute(app, UserRoutes.preferences, async (req) => ok(await service.preferences(http.live(req).user.id)));

  addRoute(app, UserRoutes.savePreferences, async (req) =>
    ok(await service.savePreferences(http.live(req).user.id, req.body)),
  );
}
