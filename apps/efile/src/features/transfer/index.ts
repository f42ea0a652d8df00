import type { EfileApp, EfileContext } from '../../http/context';
import { transferRepository } from './transfer.repository';
import { transferRoutes } from './transfer.routes';
import { transferService } from './transfer.service';

/**
 * Fast transfer (issue 11): builds the service over the database and registers the client's calls, with its own
 * sweep of abandoned partial files (the same interval and time-to-live as the browser uploads).
 */
export function transferFeature(app: EfileApp, ctx: EfileContext) {
  const service = transferService(ctx.deps, transferRepository(ctx.deps.db as never));
  transferRoutes(app, ctx, service);
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
