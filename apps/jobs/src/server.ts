/**
 * Starts one job service alone (scaled-out mode): `node apps/jobs/dist/server.js` with JOBS_* variables
 * (docs/OPERATIONS.md). In unix mode it starts as root, starts the kit's root launcher, binds its port, then becomes
 * JOBS_SERVICE_USER for good: it never runs a command as anyone but itself (the poller's reads) or, through the
 * user's worker, as the user.
 */
import { serveAlone } from '@hpc/cluster-kit';
import { readJobsConfig } from './config';
import { buildJobs } from './app';

const config = readJobsConfig();
const { app } = await buildJobs(config);
await serveAlone(app, {
  port: config.JOBS_PORT,
  host: config.JOBS_HOST,
  serviceUser: config.JOBS_USER_MODE === 'unix' ? config.JOBS_SERVICE_USER : '',
});
