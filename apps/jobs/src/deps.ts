import type { JSONWebKeySet } from 'jose';
import {
  createClusterTokenVerifier,
  createKv,
  openRevocationStore,
  type KvStore,
  type RevocationStore,
} from '@hpc/server-kit';
import {
  createTokenCheck,
  noOwnerRights,
  portalOwnerRights,
  type OwnerRightsLookup,
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

export interface JobsDepsOptions {
  /** The portal's public keys in-process (all-in-one, tests); otherwise JOBS_JWKS_URL is used. */
  jwks?: () => JSONWebKeySet;
  kv?: KvStore;
  /** The portal's revocation store in-process (all-in-one); otherwise REDIS_URL's, or memory. */
  revocations?: RevocationStore;
  ownerRights?: OwnerRightsLookup;
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
  const verifier = createClusterTokenVerifier(
    opts.jwks
      ? { clusterId: config.JOBS_CLUSTER_ID, jwks: opts.jwks }
      : { clusterId: config.JOBS_CLUSTER_ID, jwksUrl: config.JOBS_JWKS_URL },
  );
  const portalUrl =
    config.JOBS_PORTAL_URL || (config.JOBS_JWKS_URL ? new URL(config.JOBS_JWKS_URL).origin : '');
  const ownerRights =
    opts.ownerRights ??
    (config.JOBS_SERVICE_SECRET && portalUrl
      ? portalOwnerRights(portalUrl, config.JOBS_SERVICE_SECRET, config.JOBS_CLUSTER_ID)
      : noOwnerRights);
  const now = opts.now ?? Date.now;
  // The portal's revocations (ended sessions, disabled users), asked on every request as efile does.
  const ownRevocations = opts.revocations ? null : openRevocationStore(config.REDIS_URL || undefined);
  const revocations = opts.revocations ?? ownRevocations!.store;
  const tokens = createTokenCheck({
    verifier,
    homePattern: config.JOBS_HOME_PATTERN,
    ownerRights,
    now,
    revocations,
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
      await ownRevocations?.close();
    },
  };
}
