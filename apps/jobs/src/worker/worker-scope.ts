import { JobCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { ServiceUser } from '@hpc/cluster-kit';
import type { JobsDeps } from '../deps';
import type { JobScope, JobWorker } from './job-worker';

/** The scope of a worker call: the user it runs as and the roots that confine its paths (from the token). */
export const scopeOf = (user: ServiceUser): JobScope => ({
  cun: user.cun,
  home: user.home,
  roots: user.roots,
});

/**
 * The user's worker calls, or JOB_USER_MODE in single mode: a job submitted by the service's one account would run
 * as that account, not as the user, so single mode acts for nobody (issue 22 §2).
 */
export function workerOf(deps: JobsDeps): JobWorker {
  if (!deps.worker) throw new AppError(JobCodes.userMode);
  return deps.worker;
}
