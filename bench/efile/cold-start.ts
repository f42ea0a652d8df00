/**
 * A user worker's cold start, alone (docs/PERFORMANCE.md "Unix mode"): launcher round trip, account check, fork
 * from the bundle, identity set, ready; `COLD_STARTS` (7) restarts of one user's worker, in a process of its own so
 * that nothing else of the efile bench shares its event loop. Needs root (it creates the user `tuxcold` and removes
 * it) and the built worker bundle (`node scripts/build.mjs`). Run: `node --import tsx bench/efile/cold-start.ts`.
 * To compare two builds, run it in a worktree of each, alternating.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PathResolver } from '@hpc/cluster-kit';
import { readEfileConfig } from '../../apps/efile/src/config';
import { workerUserFs } from '../../apps/efile/src/userfs/worker-client';
import { createUsers, isRoot, makeHome, removeUsers } from '../../test-support/unix-users';
import { median } from '../bench-kit';

if (!isRoot) {
  console.error('bench/efile/cold-start.ts needs root (it creates a user)');
  process.exit(1);
}
const USER = 'tuxcold';
const HOME = `/public/home/${USER}`;
const STARTS = Number(process.env.COLD_STARTS ?? 7);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
// The user's worker must reach its home below it.
fs.chmodSync(tmp, 0o755);
const root = path.join(tmp, 'root');
const home = path.join(root, HOME);
fs.mkdirSync(path.dirname(home), { recursive: true });
createUsers([USER]);
try {
  makeHome(home, USER);
  const config = readEfileConfig({
    EFILE_CLUSTER_ID: 'bench',
    EFILE_FS_ROOT: root,
    DATA_DIR: path.join(tmp, 'data'),
    EFILE_USER_MODE: 'unix',
    EFILE_JWKS_URL: 'http://127.0.0.1:1/',
  });
  const fsx = workerUserFs(config, new PathResolver(fs.realpathSync(root)));
  await fsx.startLauncher();
  for (let i = 0; i < STARTS; i++) {
    await fsx.list({ cun: USER, roots: [HOME] }, HOME, {
      pageNum: 1,
      pageSize: 20,
      sort: 'name',
      order: 'asc',
    });
    const pid = fsx.running().get(USER);
    fsx.restart(USER);
    while (fsx.running().get(USER) === pid) await new Promise((r) => setTimeout(r, 10));
  }
  const starts = fsx.coldStarts.map((x) => x.toFixed(0)).join('/');
  console.log(
    `worker cold start ${starts} ms, median ${median(fsx.coldStarts).toFixed(0)} ms, load ${(os.loadavg()[0] ?? 0).toFixed(1)}`,
  );
  await fsx.close();
} finally {
  removeUsers([USER]);
  fs.rmSync(tmp, { recursive: true, force: true });
}
