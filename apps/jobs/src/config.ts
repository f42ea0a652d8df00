import path from 'node:path';
import { Type, type Static } from 'typebox';
import { TrustProxySetting, loadConfig } from '@hpc/server-kit';

/** The environment of one job service instance (one cluster), read once at start. Documented in docs/OPERATIONS.md. */
export const JobsEnv = Type.Object({
  JOBS_CLUSTER_ID: Type.String({ default: '11250', minLength: 1 }),
  JOBS_PORT: Type.Integer({ default: 8092, minimum: 0, maximum: 65535 }),
  JOBS_HOST: Type.String({ default: '0.0.0.0' }),
  /** The portal's JWKS (scaled-out mode), e.g. https://portal.example.org/api/auth/jwks.json. */
  JOBS_JWKS_URL: Type.String({ default: '' }),
  /** The portal's base URL for the rights of the moment (empty: the origin of JOBS_JWKS_URL). */
  JOBS_PORTAL_URL: Type.String({ default: '' }),
  /** The portal's EFILE_SERVICE_SECRET: without it every account check fails closed ("1404"). */
  JOBS_SERVICE_SECRET: Type.String({ default: '' }),
  /** Host folder cluster paths are relative to: '/' wherever the scheduler's nodes see the same paths. */
  JOBS_FS_ROOT: Type.String({ default: '/' }),
  JOBS_HOME_PATTERN: Type.String({ default: '/public/home/{user}' }),
  /**
   * Create homes and sample files on a user's first call (all-in-one demo only, as EFILE_DEMO): the Job page may be
   * a fresh demo user's first page, before E-File made the home.
   */
  JOBS_DEMO: Type.Boolean({ default: false }),
  DATA_DIR: Type.String({ default: './data' }),
  REDIS_URL: Type.String({ default: '' }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  TRUST_PROXY: TrustProxySetting,
  /** How often the one poller of the cluster reads the whole queue (issue 22 §2: at most every few seconds). */
  JOBS_POLL_INTERVAL_S: Type.Number({ default: 3, minimum: 0.2, maximum: 600 }),
  /** How often partitions, nodes, QOS and associations are read again. */
  JOBS_CLUSTER_INFO_INTERVAL_S: Type.Number({ default: 30, minimum: 1 }),
  /** Deadline of one scheduler command. */
  JOBS_COMMAND_TIMEOUT_S: Type.Number({ default: 60, minimum: 1 }),
  /** Folder of Slurm's commands (empty: found on PATH). */
  JOBS_SLURM_BIN_DIR: Type.String({ default: '' }),
  /** Slurm's configuration file when not the default /etc/slurm/slurm.conf (passed to every command as SLURM_CONF). */
  SLURM_CONF: Type.String({ default: '' }),
  /**
   * 'unix': every call that acts for a user runs in a worker process as that user (uid, gid, groups), so the
   * scheduler authorises and accounts it as the user's own; the service starts as root (issue 22 §2). 'single':
   * the job calls answer JOB_USER_MODE (submitting needs the per-user mode).
   */
  JOBS_USER_MODE: Type.Union([Type.Literal('single'), Type.Literal('unix')], { default: 'single' }),
  /** Unix mode: the account the HTTP front end runs as after binding its port and starting the launcher. */
  JOBS_SERVICE_USER: Type.String({ default: '' }),
  JOBS_MIN_UID: Type.Integer({ default: 1000, minimum: 1 }),
  JOBS_REFUSED_SHELLS: Type.String({ default: '/usr/sbin/nologin,/sbin/nologin,/bin/false,/usr/bin/false' }),
  JOBS_WORKER_IDLE_S: Type.Number({ default: 300, minimum: 1 }),
  JOBS_MAX_WORKERS: Type.Integer({ default: 64, minimum: 1 }),
  /** Where the launcher keeps worker sockets and pid files (default DATA_DIR/run/jobs-<cluster>). */
  JOBS_RUN_DIR: Type.String({ default: '' }),
});
export type JobsEnv = Static<typeof JobsEnv>;

export interface JobsConfig extends JobsEnv {
  fsRoot: string;
  runDir: string;
  /** The environment every Slurm command gets besides PATH and the locale. */
  slurmEnv: Record<string, string>;
}

export function readJobsConfig(env: Record<string, string | undefined> = process.env): JobsConfig {
  const e = loadConfig(JobsEnv, env);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(e.JOBS_CLUSTER_ID))
    throw new Error('JOBS_CLUSTER_ID: letters, digits, _ -');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...e,
    fsRoot: path.resolve(e.JOBS_FS_ROOT),
    runDir: e.JOBS_RUN_DIR
      ? path.resolve(e.JOBS_RUN_DIR)
      : path.join(dataDir, 'run', `jobs-${e.JOBS_CLUSTER_ID}`),
    slurmEnv: e.SLURM_CONF ? { SLURM_CONF: e.SLURM_CONF } : {},
  };
}
