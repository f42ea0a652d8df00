import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../deps';
import { catalogFeature } from './catalog';
import { identityFeature } from './identity';
import { siteFeature } from './site';
import { usersFeature } from './users';

/** Registers every feature's routes. Each feature builds its repositories and services from `deps`. */
export async function registerFeatures(app: AppServer, deps: PortalDeps): Promise<void> {
  // Identity first: it installs the root hooks (session, CSRF, request-time header) that every later route needs.
  await identityFeature(app, deps);
  await usersFeature(app, deps);
  await catalogFeature(app, deps);
  await siteFeature(app, deps);
}
