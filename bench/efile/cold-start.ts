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
import { median, ms } from '../bench-kit';

/**
 * Times `starts` cold starts of `user`'s worker over the file-system root `root` (efile's data in `dataDir`): each
 * a first call (a listing of `home`) through a new worker, then the worker restarted. `coldStarts` is launcher to
 * ready as the worker pool measures it, `firstCall` the first call end to end.
 */
export async function timeColdStarts(opts: {
  root: string;
  user: string;
  home: string;
  dataDir: string;
  starts: number;
}): Promise<{ coldStarts: number[]; firstCall: number[] }> {
  const config = readEfileConfig({
    EFILE_CLUSTER_ID: 'bench',
    EFILE_FS_ROOT: opts.root,
    DATA_DIR: opts.dataDir,
    EFILE_USER_MODE: 'unix',
    EFILE_JWKS_URL: 'http://127.0.0.1:1/',
  });
  const fsx = workerUserFs(config, new PathResolver(fs.realpathSync(opts.root)));
  await fsx.startLauncher();
  const firstCall: number[] = [];
  try {
    for (let i = 0; i < opts.starts; i++) {
      const t0 = process.hrtime.bigint();
      await fsx.list({ cun: opts.user, roots: [opts.home] }, opts.home, {
        pageNum: 1,
        pageSize: 20,
        sort: 'name',
        order: 'asc',
      });
      firstCall.push(ms(t0));
      const pid = fsx.running().get(opts.user);
      fsx.restart(opts.user);
      while (fsx.running().get(opts.user) === pid) await new Promise((r) => setTimeout(r, 10));
    }
    return { coldStarts: [...fsx.coldStarts], firstCall };
  } finally {
    await fsx.close();
  }
}

async function main() {
  if (!isRoot) {
    console.error('bench/efile/cold-start.ts needs root (it creates a user)');
    process.exit(1);
  }
  const USER = 'tuxcold';
  const HOME = `/public/home/${USER}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  // The user's worker must reach its home below it.
  fs.chmodSync(tmp, 0o755);
  const root = path.join(tmp, 'root');
  const home = path.join(root, HOME);
  fs.mkdirSync(path.dirname(home), { recursive: true });
  createUsers([USER]);
  try {
    makeHome(home, USER);
    const { coldStarts } = await timeColdStarts({
      root,
      user: USER,
      home: HOME,
      dataDir: path.join(tmp, 'data'),
      starts: Number(process.env.COLD_STARTS ?? 7),
    });
    const starts = coldStarts.map((x) => x.toFixed(0)).join('/');
    const load = (os.loadavg()[0] ?? 0).toFixed(1);
    console.log(`worker cold start ${starts} ms, median ${median(coldStarts).toFixed(0)} ms, load ${load}`);
  } finally {
    removeUsers([USER]);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
