import { JobRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { JobsApp, JobsContext } from '../../http/context';
import { createJobsService } from './jobs.service';

/** The lists, the detail and output, and the actions on jobs (issue 22 §2), from contracts' `JobRoutes`. */
export function jobsRoutes(app: JobsApp, ctx: JobsContext): void {
  const jobs = createJobsService(ctx.deps);
  addRoute(app, JobRoutes.list, async (req) => ok(await jobs.list(ctx.user(req), req.query)));
  addRoute(app, JobRoutes.overview, async (req) => ok(await jobs.overview(ctx.user(req))));
  addRoute(app, JobRoutes.history, async (req) => ok(await jobs.history(ctx.user(req), req.query)));
  addRoute(app, JobRoutes.detail, async (req) => ok(await jobs.detail(ctx.user(req), req.query.jobId)));
  addRoute(app, JobRoutes.output, async (req) => ok(await jobs.output(ctx.user(req), req.query)));
  for (const action of ['cancel', 'hold', 'release'] as const) {
    addRoute(app, JobRoutes[action], async (req) =>
      ok({ results: await jobs.act(ctx.user(req), action, req.body.jobIds, req.headers['accept-language']) }),
    );
  }
}
