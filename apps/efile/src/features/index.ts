import { claimInterval } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../http/context';
import { shareRepository } from './share/share.repository';
import { filesService } from './files/files.service';
import { filesRoutes } from './files/files.routes';
import { downloadService } from './download/download.service';
import { downloadRoutes } from './download/download.routes';
import { uploadService } from './upload/upload.service';
import { uploadRoutes } from './upload/upload.routes';
import { previewService } from './preview/preview.service';
import { previewRoutes } from './preview/preview.routes';
import { operationsRepository } from './operations/operations.repository';
import { operationsService } from './operations/operations.service';
import { operationsRoutes } from './operations/operations.routes';
import { shareService } from './share/share.service';
import { shareRoutes } from './share/share.routes';
import { linuxRepository } from './linux/linux.repository';
import { linuxService } from './linux/linux.service';
import { linuxRoutes } from './linux/linux.routes';
import { ticketRoutes } from './ticket/ticket.routes';
import { fastransFeature } from './fastrans';
import { usageRoutes } from './usage/usage.routes';
import { partialCore } from './partial';

/**
 * Sweeps abandoned partials every EFILE_SWEEP_INTERVAL_MINUTES (0 = never; tests call sweep directly): one sweep for
 * the browser's uploads, fast transfer and tar staging folders (features/partial). The lease keeps its old name, so
 * that during a rolling upgrade old and new instances still claim the same interval.
 */
function startSweeper(app: EfileApp, ctx: EfileContext, sweep: () => Promise<number>) {
  const minutes = ctx.deps.config.EFILE_SWEEP_INTERVAL_MINUTES;
  if (minutes <= 0) return;
  const timer = setInterval(() => {
    // Every instance ticks; the interval's lease lets one of the cluster sweep (packages/server-kit/src/kv-lease.ts).
    void claimInterval(ctx.deps.kv, 'upload-sweep', minutes * 60_000)
      .then(async (slot) =>
        app.log.info({ slot, removed: slot === null ? null : await sweep() }, 'upload sweep'),
      )
      .catch((err: unknown) => app.log.error({ err }, 'partial upload sweep failed'));
  }, minutes * 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

/** Builds each feature's repositories and services from the deps and registers its routes. */
export async function registerFeatures(app: EfileApp, ctx: EfileContext): Promise<void> {
  const shares = shareRepository(ctx.deps.db);
  filesRoutes(app, ctx, filesService(ctx.deps, shares));
  const downloads = downloadService(ctx.deps);
  downloadRoutes(app, ctx, downloads);
  // The partial file, built once: the chunk upload and fast transfer are its two front doors, Linux tar uploads
  // record their staging folders in it.
  const partials = partialCore(ctx.deps);
  app.addHook('onClose', async () => partials.close());
  startSweeper(app, ctx, () => partials.sweep());
  uploadRoutes(app, ctx, uploadService(ctx.deps, partials));
  previewRoutes(app, ctx, previewService(ctx.deps));
  shareRoutes(app, ctx, shareService(ctx.deps, shares), downloads);
  linuxRoutes(app, ctx, linuxService(ctx.deps, linuxRepository(ctx.deps.db), partials), downloads);
  ticketRoutes(app, ctx);
  operationsRoutes(app, ctx, operationsService(ctx.deps, operationsRepository(ctx.deps.db), shares, app.log));
  fastransFeature(app, ctx, partials);
  usageRoutes(app, ctx);
}
