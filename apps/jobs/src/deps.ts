import { createKv, type KvStore } from '@hpc/server-kit';
import {
  createTokenCheck,
  noOwnerRights,
  openPortalTrust,
  type OwnerRightsLookup,
  type PortalTrustOptions,
  type TokenCheck,
} from '@hpc/cluster-kit';
import type { JobsConfig } from './config';
import { createPoller, type Poller } from './queue/queue-poller';
import { createQueueView, type QueueView } from './queue/queue-view';
import { runCommand, type RunCommand } from './scheduler/command';
import type { SchedulerReader } from './scheduler/scheduler';
import { slurmReader } from './scheduler/slurm/slurm-reader';
import type { JobWorker } from './worker/job-worker';
import { startJobWorkers } from './worker/job-calls';

/** What every feature of the job service is built from. */
export interface JobsDeps {
  config: JobsConfig;
  kv: KvStore;
  tokens: TokenCheck;
  /** The user's rights of the moment (account and its status), asked of the portal. */
  ownerRights: OwnerRightsLookup;
  /** The scheduler as the service reads it (the poller, the after-action reads). */
  reader: SchedulerReader;
  poller: Poller;
  view: QueueView;
  /** The calls that run as the user (unix mode); null in single mode. */
  worker: JobWorker | null;
  now: () => number;
  close(): Promise<void>;
}

export interface JobsDepsOptions extends PortalTrustOptions {
  kv?: KvStore;
  /** The scheduler's commands (tests with recorded output). */
  run?: RunCommand;
  /** Do not start the poller's timer (tests poll by hand). */
  noPolling?: boolean;
  now?: () => number;
}

export async function openJobsDeps(config: JobsConfig, opts: JobsDepsOptions = {}): Promise<JobsDeps> {
  if (!opts.jwks && !config.JOBS_JWKS_URL) throw new Error('JOBS_JWKS_URL is required (the portal JWKS)');
  const ownKv = !opts.kv;
  const kv = opts.kv ?? createKv(config.REDIS_URL || undefined, `jobs:${config.JOBS_CLUSTER_ID}:`);
  // The portal's revocations (ended sessions, disabled users) are asked on every request, as efile does.
  const portal = openPortalTrust(
    {
      clusterId: config.JOBS_CLUSTER_ID,
      jwksUrl: config.JOBS_JWKS_URL,
      portalUrl: config.JOBS_PORTAL_URL,
      serviceSecret: config.JOBS_SERVICE_SECRET,
      redisUrl: config.REDIS_URL,
    },
    opts,
  );
  const ownerRights = portal.ownerRights ?? noOwnerRights;
  const now = opts.now ?? Date.now;
  const tokens = createTokenCheck({
    verifier: portal.verifier,
    homePattern: config.JOBS_HOME_PATTERN,
    ownerRights,
    now,
    revocations: portal.revocations,
  });
  const slurm = {
    run: opts.run ?? runCommand,
    binDir: config.JOBS_SLURM_BIN_DIR,
    env: config.slurmEnv,
    timeoutMs: config.JOBS_COMMAND_TIMEOUT_S * 1000,
  };
  const reader = slurmReader(slurm);
  const poller = createPoller({
    kv,
    reader,
    intervalMs: config.JOBS_POLL_INTERVAL_S * 1000,
    clusterEveryMs: config.JOBS_CLUSTER_INFO_INTERVAL_S * 1000,
    now,
  });
  const view = createQueueView(kv, poller);
  const workers = config.JOBS_USER_MODE === 'unix' ? await startJobWorkers(config) : null;
  if (!opts.noPolling) poller.start();
  return {
    config,
    kv,
    tokens,
    ownerRights,
    reader,
    poller,
    view,
    worker: workers?.worker ?? null,
    now,
    async close() {
      await poller.stop();
      await workers?.close();
      if (ownKv) await kv.close();
      await portal.close();
    },
  };
}
