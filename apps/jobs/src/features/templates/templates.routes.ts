import { JobRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { JobsApp, JobsContext } from '../../http/context';
import { scopeOf, workerOf } from '../../worker/worker-scope';

/**
 * Job templates: files in the user's home, read and written as the user by the user's worker (issue 22 §2); there
 * is no rule beyond the contract's (name and fields), so the routes call the worker directly.
 */
export function templateRoutes(app: JobsApp, ctx: JobsContext): void {
  addRoute(app, JobRoutes.templateList, async (req) =>
    ok({ list: await workerOf(ctx.deps).templates(scopeOf(ctx.user(req))) }),
  );
  addRoute(app, JobRoutes.templateGet, async (req) =>
    ok(await workerOf(ctx.deps).template(scopeOf(ctx.user(req)), req.query.name)),
  );
  addRoute(app, JobRoutes.templateSave, { bodyLimit: 4 * 1024 * 1024 }, async (req) => {
    await workerOf(ctx.deps).saveTemplate(scopeOf(ctx.user(req)), req.body);
    return ok({ name: req.body.name });
  });
  addRoute(app, JobRoutes.templateDelete, async (req) => {
    await workerOf(ctx.deps).deleteTemplate(scopeOf(ctx.user(req)), req.body.name);
    return ok(null);
  });
}
