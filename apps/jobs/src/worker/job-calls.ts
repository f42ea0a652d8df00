import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  call,
  callClient,
  findWorkerBundle,
  parseShells,
  serviceAccount,
  UserWorkers,
  type CallTable,
} from '@hpc/cluster-kit';
import type { JobsConfig } from '../config';
import type { JobScope, JobWorker } from './job-worker';

/**
 * The job service's worker calls (issue 22 §2), declared once for the kit's wire: each runs in the user's worker
 * as the user. A submission is never sent twice (a worker that died mid-call fails it: the user decides whether to
 * submit again); cancel, hold and release are harmless to repeat, so are the reads and a template's save (the same
 * file written again).
 */
export const jobCalls = {
  submit: call.plain(),
  signal: call.plain({ repeatable: true }),
  history: call.plain({ repeatable: true }),
  detail: call.plain({ repeatable: true }),
  output: call.plain({ repeatable: true }),
  templates: call.plain({ repeatable: true }),
  template: call.plain({ repeatable: true }),
  saveTemplate: call.plain({ repeatable: true }),
  deleteTemplate: call.plain(),
} satisfies CallTable<JobWorker>;

/** What a worker reads of the service's settings from its environment (nothing secret). */
export const WORKER_ENV = [
  'JOBS_FS_ROOT',
  'JOBS_SLURM_BIN_DIR',
  'JOBS_COMMAND_TIMEOUT_S',
  'SLURM_CONF',
] as const;

/** The worker script: the bundle in apps/jobs/dist when built (a worker starts in milliseconds), else the .ts under tsx. */
function workerScript(): { script: string; execArgv: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundle = findWorkerBundle(import.meta.url, 'jobs', process.env.JOBS_WORKER_SCRIPT);
  if (bundle) return { script: bundle, execArgv: [] };
  return { script: path.join(here, 'job-worker-main.ts'), execArgv: ['--import', 'tsx'] };
}

/**
 * Unix mode: the root launcher and the per-user workers of the kit, and the typed proxy of the job calls over them.
 * Must run while the process is still root.
 */
export async function startJobWorkers(
  config: JobsConfig,
): Promise<{ worker: JobWorker; workers: UserWorkers; close(): Promise<void> }> {
  if (process.getuid?.() !== 0) throw new Error('JOBS_USER_MODE=unix needs the job service to start as root');
  const { script, execArgv } = workerScript();
  const workerEnv: Record<string, string> = {
    JOBS_FS_ROOT: config.fsRoot,
    JOBS_SLURM_BIN_DIR: config.JOBS_SLURM_BIN_DIR,
    JOBS_COMMAND_TIMEOUT_S: String(config.JOBS_COMMAND_TIMEOUT_S),
    ...(config.SLURM_CONF ? { SLURM_CONF: config.SLURM_CONF } : {}),
  };
  const workers = new UserWorkers({
    name: 'jobs',
    script,
    execArgv,
    runDir: config.runDir,
    rules: { minUid: config.JOBS_MIN_UID, refusedShells: parseShells(config.JOBS_REFUSED_SHELLS) },
    idleSeconds: config.JOBS_WORKER_IDLE_S,
    maxWorkers: config.JOBS_MAX_WORKERS,
    workerEnv,
  });
  // Worker sockets belong to the account the front end will run as (root when it stays root, as in tests).
  await workers.startLauncher(serviceAccount(config.JOBS_SERVICE_USER)?.uid ?? 0);
  const worker = callClient<JobWorker, typeof jobCalls>(jobCalls, workers, {
    wireScope: (s: JobScope) => ({ cun: s.cun, home: s.home, roots: s.roots }),
  });
  return { worker, workers, close: () => workers.close() };
}
