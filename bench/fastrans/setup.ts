/**
 * What both fast-transfer benches start (run.ts against curl and the browser's protocol, peers.ts against scp and
 * rsync): a file-system root, the user, a stand-in portal, efile as operators run it (the esbuild bundle, its own
 * process), and the client's runner in this process, as the client would run it.
 *
 * FASTRANS_BENCH_MODE=unix: efile in unix mode (every file call in the user's worker), for a real user `frbench` the
 * bench creates and removes (needs root); single mode (default) as the user `demo`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FastransTaskState as S } from '@hpc/contracts';
import { Runner } from '../../apps/fastrans/src/transfer/runner';
import { Remote } from '../../apps/fastrans/src/transfer/remote';
import { HistoryStore } from '../../apps/fastrans/src/store/history';
import { efileCalls, startStandInPortal, warmUp } from '../../test-support/stand-in-portal';
import { startEfileProcess } from '../../test-support/efile-process';
import { createUsers, makeHome, openPathTo, removeUsers } from '../../test-support/unix-users';
import { SERVER_NODE_FLAGS } from '../../scripts/node-flags.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export type BenchMode = 'single' | 'unix';
export const benchMode = (): BenchMode => (process.env.FASTRANS_BENCH_MODE === 'unix' ? 'unix' : 'single');

export async function startFastransBench(o: { mode: BenchMode; profileDir?: string }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-bench-'));
  fs.chmodSync(tmp, 0o711);
  const root = path.join(tmp, 'root');
  const user = o.mode === 'unix' ? 'frbench' : 'demo';
  const HOME = `/public/home/${user}`;
  const home = path.join(root, HOME);
  fs.mkdirSync(home, { recursive: true });
  if (o.mode === 'unix') {
    createUsers([user]);
    openPathTo(home);
    makeHome(home, user);
  } else {
    // A compute user named like the bench's (another session's test may have made one) must own the home: efile
    // checks its write permission as that user. Without such a user it checks as itself.
    const demo = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => f[0] === user);
    if (demo) {
      openPathTo(home);
      fs.chownSync(home, Number(demo[2]), Number(demo[3]));
    }
  }
  const portal = await startStandInPortal(user, HOME);
  const { token } = portal;
  execFileSync(process.execPath, ['scripts/build-servers.mjs'], { cwd: path.resolve(here, '../..') });
  const server = await startEfileProcess({
    // A CPU profile of the server (run the bench with --cpu-prof for the client).
    // The flags operators run efile with (scripts/node-flags.mjs; the systemd unit's ExecStart).
    nodeArgs: [
      ...SERVER_NODE_FLAGS,
      ...(o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.profileDir}`] : []),
    ],
    log: 'inherit',
    env: {
      UV_THREADPOOL_SIZE: '64',
      EFILE_CLUSTER_ID: 'bench',
      EFILE_USER_MODE: o.mode,
      EFILE_FS_ROOT: root,
      DATA_DIR: path.join(tmp, 'data'),
      EFILE_FOLDER_FILE_LIMIT: '10000000',
      EFILE_SERVICE_SECRET: 'bench',
      EFILE_JWKS_URL: portal.jwksUrl,
    },
  });
  const efile = efileCalls(server.base, token);
  await warmUp(efile, HOME);
  const runnerAt = (bases: string[], cfg: string, rawRanges = true) => {
    const runner = new Runner({
      store: new HistoryStore(path.join(tmp, cfg)),
      emit: () => undefined,
      log: (m) => console.error(m),
    });
    runner.setRemote(new Remote(bases, token, undefined, rawRanges));
    return runner;
  };
  return {
    tmp,
    root,
    user,
    HOME,
    home,
    token,
    server,
    base: server.base,
    efile,
    /**
     * A runner (the client's engine) talking to `bases` (efile, or a relay in front of it); `rawRanges` false reads
     * range downloads through node:http.
     */
    runnerAt,
    machine: `${os.cpus()[0]?.model} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; efile in ${o.mode} mode`,
    close() {
      server.child.kill();
      portal.close();
      fs.rmSync(tmp, { recursive: true, force: true });
      if (o.mode === 'unix') removeUsers([user]);
    },
  };
}

/**
 * Runs a fast-transfer bench's `main`, then closes what `startFastransBench` started, whatever happened: a failure
 * is printed and fails the process, which then exits (the client's sockets may linger).
 */
export function runFastransBench(main: () => Promise<void>, bench: { close(): void }): void {
  main()
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    })
    .finally(() => {
      bench.close();
      setTimeout(() => process.exit(), 500).unref();
    });
}

/** Runs one task of the client to its end; anything but success throws. */
export async function transfer(runner: Runner, start: () => Promise<{ task_id: string }>) {
  const t = await start();
  const end = await runner.waitFor(t.task_id);
  if (end.state !== S.successful) throw new Error(`task ended ${end.state}: ${end.error}`);
}

/**
 * `n` files of `size` bytes, each different (its number in its first bytes), in `folders` folders below `dir`, as a
 * job array's results folder looks; file i is `d<i % folders>/f<i>.dat` (one folder: `f<i>.dat` in `dir`).
 */
export function smallFiles(dir: string, n: number, size: number, folders = 20): void {
  const body = Buffer.alloc(size, 7);
  for (let i = 0; i < n; i++) {
    const d = folders > 1 ? path.join(dir, `d${i % folders}`) : dir;
    if (i < Math.max(folders, 1)) fs.mkdirSync(d, { recursive: true });
    if (size >= 4) body.writeUInt32LE(i, 0);
    fs.writeFileSync(path.join(d, `f${i}.dat`), body);
  }
}
