/**
 * Starts one efile instance alone (scaled-out mode): `node apps/efile/dist/server.js` with EFILE_* variables.
 * File I/O, zip and crypto share libuv's thread pool; its default of 4 is too small for parallel chunk writes and
 * downloads, and the small files of a fast-transfer upload are stored as fast as their fdatasyncs run at once, so
 * start it with `UV_THREADPOOL_SIZE=64 node apps/efile/dist/server.js` (the start scripts and the systemd unit set
 * it; DECISIONS.md, "The thread pool: 64").
 */
import { serveAlone } from '@hpc/cluster-kit';
import { readEfileConfig } from './config';
import { buildEfile } from './app';

if (!process.env.UV_THREADPOOL_SIZE) {
  console.warn('UV_THREADPOOL_SIZE is not set: file I/O runs on 4 threads (set it before starting: 64)');
}
const config = readEfileConfig();
const { app } = await buildEfile(config);
// test-support/efile-process.ts starts it with an IPC channel and waits for the address serveAlone sends it.
await serveAlone(app, {
  port: config.EFILE_PORT,
  host: config.EFILE_HOST,
  serviceUser: config.EFILE_USER_MODE === 'unix' ? config.EFILE_SERVICE_USER : '',
});
