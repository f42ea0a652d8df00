/**
 * Starts one efile instance alone (scaled-out mode): `node apps/efile/dist/server.js` with EFILE_* variables.
 * File I/O, zip and crypto share libuv's thread pool; its default of 4 is too small for parallel chunk writes and
 * downloads, so start it with e.g. `UV_THREADPOOL_SIZE=16 node apps/efile/dist/server.js` (the start script sets it).
 */
import { readEfileConfig } from './config';
import { buildEfile } from './app';
import { becomeServiceAccount, serviceAccount } from '@hpc/cluster-kit';

if (!process.env.UV_THREADPOOL_SIZE) {
  console.warn('UV_THREADPOOL_SIZE is not set: file I/O runs on 4 threads (set it before starting, e.g. 16)');
}
const config = readEfileConfig();
const { app } = await buildEfile(config);
const listening = await app.listen({ port: config.EFILE_PORT, host: config.EFILE_HOST });
// A parent that started this process with an IPC channel (tests, benches: test-support/efile-process.ts) learns the
// address (EFILE_PORT 0 picks a free port) without depending on the log level; without a channel, nothing happens.
process.send?.({ listening });
if (config.EFILE_USER_MODE === 'unix' && config.EFILE_SERVICE_USER) {
  // Unix mode: the port is bound and the root launcher started (buildEfile); the front end never needs root again
  // and never touches a user's file itself, so it becomes the service account for good.
  const service = serviceAccount(config.EFILE_SERVICE_USER)!;
  becomeServiceAccount(service);
  app.log.info({ uid: service.uid }, `serving as ${service.name}`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
