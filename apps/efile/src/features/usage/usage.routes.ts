import { UsageRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import { usageService } from './usage.service';

/** `GET /usage.action`: the home's used space and recent files, from the background count's cache. */
export function usageRoutes(app: EfileApp, ctx: EfileContext): void {
  const usage = usageService(ctx.deps);
  addRoute(app, UsageRoutes.usage, async (req) =>
    ok(await usage.usage(ctx.auth.user(req), (err) => req.log.warn({ err }, 'counting a home failed'))),
  );
}
