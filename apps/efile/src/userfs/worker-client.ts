import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  UserWorkers,
  callClient,
  findWorkerBundle,
  parseShells,
  type CallTransport,
  type PathResolver,
} from '@hpc/cluster-kit';
import type { EfileConfig } from '../config';
import { smallSent } from './small-files-call';
import type { FsScope, UserFs } from './types';
import { userFsCalls } from './user-fs-calls';

/**
 * A worker's V8 heap starts with room: `--initial-old-space-size=128` (MiB; the launcher passes its flags on to
 * the workers). A worker's heap is small (~10 MB of objects) while an upload streams ~1 GB/s of socket pieces
 * through it, each backed by external memory. V8 sizes its collection limits from the heap, so a small heap with that
 * much external memory had it marking the old generation almost without pause: measured, a worker spent 2-3x the
 * CPU of single mode's whole server on the same chunks (four GC threads busy), and the flag brought it to par
 * (docs/PERFORMANCE.md, unix mode, eighth session). It raises the heap's first limit, not what is allocated.
 */
const WORKER_HEAP_FLAG = '--initial-old-space-size=128';

/** The worker script: the .ts beside this file under tsx (tests, dev), the bundle in apps/efile/dist otherwise. */
function workerScript(): { script: string; execArgv: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundle = findWorkerBundle(import.meta.url, 'efile', process.env.EFILE_WORKER_SCRIPT);
  // A front end started with --cpu-prof (the benches' BENCH_PROFILE) has its launcher and workers profiled too: the
  // launcher passes its own flags on to the workers. Node refuses --cpu-prof in NODE_OPTIONS, so this is the way in.
  const profiling = process.execArgv.filter((a) => a.startsWith('--cpu-prof'));
  const flags = [WORKER_HEAP_FLAG, ...profiling];
  if (bundle) return { script: bundle, execArgv: flags };
  return { script: path.join(here, 'worker-main.ts'), execArgv: ['--import', 'tsx', ...flags] };
}

/** Unix mode's `UserFs`, and what the admin, the tests and the bench see of its workers. */
export interface WorkerUserFs extends UserFs {
  /** Starts the root launcher (must run while this process is still root: server.ts calls it before dropping). */
  startLauncher(socketOwnerUid?: number): Promise<void>;
  /** The admin's "restart this user's worker": stops it; the next request starts a new one (with current groups). */
  restart(user: string): void;
  /** Running workers (user → pid). */
  running(): Map<string, number>;
  /** Cold starts measured (ms), for the bench. */
  readonly coldStarts: number[];
  /** Small files sent to workers, and in how many requests. */
  readonly smallSent: { files: number; requests: number };
}

/**
 * Unix mode (issue 10 §1): every operation of a user runs in that user's worker process. The cluster kit's
 * `UserWorkers` keeps one worker per active user (started through the root launcher, at most EFILE_MAX_WORKERS, the
 * least recently used idle one stopped at the limit, "1001 busy, retry" when none is idle); the calls are the proxy
 * the kit derives from the call table. A worker that dies fails only the requests in flight (1001); the next
 * request starts a new one.
 */
export function workerUserFs(config: EfileConfig, resolver: PathResolver): WorkerUserFs {
  const { script, execArgv } = workerScript();
  const workers = new UserWorkers({
    name: 'efile',
    script,
    execArgv,
    runDir: config.EFILE_RUN_DIR || path.join(config.dataDir, 'run'),
    rules: { minUid: config.EFILE_MIN_UID, refusedShells: parseShells(config.EFILE_REFUSED_SHELLS) },
    idleSeconds: config.EFILE_WORKER_IDLE_S,
    maxWorkers: config.EFILE_MAX_WORKERS,
    workerEnv: { EFILE_WORKER_FS_ROOT: resolver.fsRoot },
  });
  const transport: CallTransport = {
    request: (user, route, opts) => workers.request(user, route, opts),
    forget: (user) => workers.forget(user),
    // Off (EFILE_WORKER_HANDOFF, read at each answer): every download and zip is relayed through this process.
    handOff: async (user, out, job) =>
      config.EFILE_WORKER_HANDOFF ? workers.handOff(user, out, job) : { handed: false },
  };
  const calls = callClient<UserFs, typeof userFsCalls>(userFsCalls, transport, {
    wireScope: (s: FsScope) => ({ cun: s.cun, roots: s.roots }),
  });
  return {
    ...calls,
    close: () => workers.close(),
    startLauncher: (uid = process.getuid?.() ?? 0) => workers.startLauncher(uid),
    restart: (user) => workers.restart(user),
    running: () => workers.running(),
    get coldStarts() {
      return workers.coldStarts;
    },
    smallSent,
  };
}
