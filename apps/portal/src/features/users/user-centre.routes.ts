import { UserPreferencesBody, UserPreferencesResponse, UserProfileResponse } from '@hpc/contracts';
import { ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from '../identity';
import type { UserCentreService } from './user-centre.service';

const tags = ['user centre'];

/** The user centre's calls: the profile and the preferences (the password change is `POST /api/user/password`). */
export function userCentreRoutes(app: AppServer, service: UserCentreService, http: SessionHttp): void {
  app.get('/api/user/profile', { schema: { tags, response: { 200: UserProfileResponse } } }, async (req) =>
    ok(await service.profile(http.live(req).user.id)),
  );

  app.get(
    '/api/user/preferences',
    { schema: { tags, response: { 200: UserPreferencesResponse } } },
    async (req) => ok(await service.preferences(http.live(req).user.id)),
  );

  app.put(
    '/api/user/preferences',
    { schema: { tags, body: UserPreferencesBody, response: { 200: UserPreferencesResponse } } },
    async (req) => ok(await service.savePreferences(http.live(req).user.id, req.body)),
  );
}
