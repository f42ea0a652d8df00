import { HomeUsageResponse } from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import { usageService } from './usage.service';

/** `GET /usage.action`: the home's used space and recent files, from the background count's cache. */
export function usageRoutes(app: EfileApp, ctx: EfileContext): void {
  const usage = usageService(ctx.deps);
  app.get('/usage.action', { schema: { response: { 200: HomeUsageResponse } } }, async (req) =>
    ok(await usage.usage(ctx.auth.user(req), (err) => req.log.warn({ err }, 'counting a home failed'))),
  );
}
