import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../deps';
import { catalogFeature } from './catalog';
import { identityFeature, identityFeaturePlugin, identityServices } from './identity';
import { siteFeature } from './site';
import { usersFeature } from './users';
import { fastransFeature } from './fastrans';

/**
 * Registers every feature's routes. Identity's services and session helper are built once and decorate the root
 * (`identity-services`); each feature is a plugin that depends on them and builds its own services from `deps`.
 */
export async function registerFeatures(app: AppServer, deps: PortalDeps): Promise<void> {
  await app.register(identityServices, { deps });
  await app.register(identityFeaturePlugin('identity', identityFeature), { deps });
  await app.register(identityFeaturePlugin('users', usersFeature), { deps });
  await app.register(identityFeaturePlugin('catalog', catalogFeature), { deps });
  await app.register(identityFeaturePlugin('site', siteFeature), { deps });
  await app.register(identityFeaturePlugin('fastrans', fastransFeature), { deps });
}
