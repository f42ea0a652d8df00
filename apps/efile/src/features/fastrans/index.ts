import type { EfileApp, EfileContext } from '../../http/context';
import { fastransRepository } from './fastrans.repository';
import { fastransRoutes } from './fastrans.routes';
import { fastransService } from './fastrans.service';

/**
 * Fast transfer (issue 11): builds the service over the database and registers the client's calls, with its own
 * sweep of abandoned partial files (the same interval and time-to-live as the browser uploads).
 */
export function fastransFeature(app: EfileApp, ctx: EfileContext) {
  const service = fastransService(ctx.deps, fastransRepository(ctx.deps.db as never));
  fastransRoutes(app, ctx, service);
  const minutes = ctx.deps.config.EFILE_SWEEP_INTERVAL_MINUTES;
  if (minutes > 0) {
    const timer = setInterval(() => {
      service.sweep().catch((err: unknown) => app.log.error({ err }, 'fast-transfer sweep failed'));
    }, minutes * 60_000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  return service;
}
