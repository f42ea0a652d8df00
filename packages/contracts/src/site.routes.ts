import { SiteConfigResponse } from './site';
import { defineRoute } from './route';

/** The portal's site-wide settings (`route.ts`): read once by every page, anonymous. */
export const SiteRoutes = {
  config: defineRoute({ method: 'GET', path: '/api/site/config', response: SiteConfigResponse }),
};
