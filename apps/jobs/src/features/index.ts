import type { JobsApp, JobsContext } from '../http/context';
import { jobsRoutes } from './jobs/jobs.routes';
import { submitRoutes } from './submit/submit.routes';
import { templateRoutes } from './templates/templates.routes';

/** Registers every feature of the job service on its scope. */
export async function registerFeatures(app: JobsApp, ctx: JobsContext): Promise<void> {
  submitRoutes(app, ctx);
  jobsRoutes(app, ctx);
  templateRoutes(app, ctx);
}
