import type { EfileApp, EfileContext } from '../../http/context';
import type { PartialCore } from '../partial';
import { fastransRoutes } from './fastrans.routes';
import { fastransService } from './fastrans.service';

/**
 * Fast transfer (issue 11): builds the service over the partial-file core and registers the client's calls. Its
 * abandoned partials go with the core's one sweep (features/index.ts), under the cluster lease like the browser's.
 */
export function fastransFeature(app: EfileApp, ctx: EfileContext, partials: PartialCore) {
  const service = fastransService(ctx.deps, partials);
  fastransRoutes(app, ctx, service);
  return service;
}
