import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../deps';
import { catalogFeature } from './catalog';
import { identityFeature } from './identity';
import { siteFeature } from './site';

/** Registers every feature's routes. Each feature builds its repositories and services from `deps`. */
export async function registerFeatures(app: AppServer, deps: PortalDeps): Promise<void> {
  await catalogFeature(app, deps);
  await identityFeature(app, deps);
  await siteFeature(app, deps);
}
