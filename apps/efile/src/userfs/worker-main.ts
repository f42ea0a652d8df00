/**
 * efile's user-worker entry, bundled alone as `apps/efile/dist/efile-worker.js` so that a worker starts in
 * milliseconds. The roles (root launcher, worker, the admin's `restart <user>`) are the cluster kit's
 * (`runWorkerEntry`); a worker, once it is the user, serves that user's files: `LocalUserFs` behind the dispatcher
 * derived from the call table (user-fs-calls.ts), confined to the roots of each call's scope under
 * EFILE_WORKER_FS_ROOT.
 */
import { fileURLToPath } from 'node:url';
import { runWorkerEntry } from '@hpc/cluster-kit';

await runWorkerEntry({
  entry: fileURLToPath(import.meta.url),
  name: 'efile',
  runDirVariable: 'EFILE_RUN_DIR',
  async start(id) {
    const { callServer, PathResolver } = await import('@hpc/cluster-kit');
    const { LocalUserFs } = await import('./local');
    const { userFsCalls } = await import('./user-fs-calls');
    const fsRoot = process.env.EFILE_WORKER_FS_ROOT ?? '/';
    const local = new LocalUserFs(new PathResolver(fsRoot), { asUser: true });
    return callServer(userFsCalls, local, { user: id.user });
  },
});
