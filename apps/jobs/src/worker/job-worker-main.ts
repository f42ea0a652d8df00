/**
 * The job service's worker entry (its own small bundle, apps/jobs/dist/jobs-worker.js): the kit's launcher, the
 * per-user worker, and the admin's `restart <user>`. The worker becomes the user before anything of the service is
 * imported, then serves the job calls (job-calls.ts) as that user: sbatch, scancel, scontrol, sacct, and the files
 * of templates and job output.
 */
import { fileURLToPath } from 'node:url';
import { runWorkerEntry } from '@hpc/cluster-kit';

await runWorkerEntry({
  entry: fileURLToPath(import.meta.url),
  name: 'jobs',
  runDirVariable: 'JOBS_RUN_DIR',
  async start(id) {
    const { callServer, PathResolver } = await import('@hpc/cluster-kit');
    const { jobCalls } = await import('./job-calls');
    const { createJobWorker } = await import('./job-worker');
    const { runCommand } = await import('../scheduler/command');
    const { slurmUserCalls } = await import('../scheduler/slurm/slurm-user-calls');
    const env = process.env;
    const slurmEnv: Record<string, string> = env.SLURM_CONF ? { SLURM_CONF: env.SLURM_CONF } : {};
    const slurm = slurmUserCalls({
      run: runCommand,
      binDir: env.JOBS_SLURM_BIN_DIR ?? '',
      env: slurmEnv,
      timeoutMs: Number(env.JOBS_COMMAND_TIMEOUT_S ?? 60) * 1000,
    });
    const worker = createJobWorker({ resolver: new PathResolver(env.JOBS_FS_ROOT ?? '/'), slurm, slurmEnv });
    return callServer(jobCalls, worker, { user: id.user });
  },
});
