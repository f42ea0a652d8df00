/**
 * Starts one job service alone (scaled-out mode): `node apps/jobs/dist/server.js` with JOBS_* variables
 * (docs/OPERATIONS.md). In unix mode it starts as root, starts the kit's root launcher, binds its port, then becomes
 * JOBS_SERVICE_USER for good: it never runs a command as anyone but itself (the poller's reads) or, through the
 * user's worker, as the user.
 */
import { becomeServiceAccount, serviceAccount } from '@hpc/cluster-kit';
import { readJobsConfig } from './config';
import { buildJobs } from './app';

const config = readJobsConfig();
const { app } = await buildJobs(config);
const listening = await app.listen({ port: config.JOBS_PORT, host: config.JOBS_HOST });
// A parent that started this process with an IPC channel (tests, benches) learns the address (JOBS_PORT 0 picks one).
process.send?.({ listening });
if (config.JOBS_USER_MODE === 'unix' && config.JOBS_SERVICE_USER) {
  const service = serviceAccount(config.JOBS_SERVICE_USER)!;
  becomeServiceAccount(service);
  app.log.info({ uid: service.uid }, `serving as ${service.name}`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
