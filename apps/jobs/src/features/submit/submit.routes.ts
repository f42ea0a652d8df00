import { JobRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { JobsApp, JobsContext } from '../../http/context';
import { createSubmitService } from './submit.service';

/** The form's partitions and accounts, and the submission (issue 22 §2). */
export function submitRoutes(app: JobsApp, ctx: JobsContext): void {
  const submit = createSubmitService(ctx.deps);
  addRoute(app, JobRoutes.partitions, async (req) => ok(await submit.partitions(ctx.user(req))));
  // A script of 1 MiB as JSON text can take up to twice that escaped; the rule itself is checked on the text.
  addRoute(app, JobRoutes.submit, { bodyLimit: 4 * 1024 * 1024 }, async (req) =>
    ok(await submit.submit(ctx.user(req), req.body)),
  );
}
