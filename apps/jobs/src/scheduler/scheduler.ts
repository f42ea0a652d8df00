/**
 * The scheduler adapter (issue 22 §2): what the job service needs of a batch scheduler, with Slurm as the first
 * implementation (`slurm/`). Two halves:
 *
 *   - `SchedulerReader`, run by the service as its own account: the whole queue, a few jobs by id, partitions and
 *     nodes, associations. Only the poller and the after-action refresh call it (never a browser's request).
 *   - `SchedulerUserCalls`, run inside the user's worker as that user: submit, cancel/hold/release, history,
 *     detail. The scheduler then authorises and accounts them as the user did them.
 */

/** One job as the service keeps it (from the queue or accounting); times in ms, null when not known yet. */
export interface QueueJob {
  jobId: string;
  name: string;
  user: string;
  state: string;
  reason: string;
  account: string;
  partition: string;
  qos: string;
  nodeList: string;
  nodes: number;
  cpus: number;
  gpus: number;
  tasks: number;
  cpusPerTask: number;
  memoryMb: number;
  submitTime: number | null;
  startTime: number | null;
  endTime: number | null;
  timeLimitMinutes: number | null;
  workDir: string;
  command: string;
  /** Exit code and signal, `0:0`. */
  exitCode: string;
  /** Elapsed seconds where the scheduler reports them (accounting); computed from the times otherwise. */
  elapsedSeconds?: number;
  stdout?: string;
  stderr?: string;
}

export interface PartitionInfo {
  name: string;
  isDefault: boolean;
  state: string;
  maxTimeMinutes: number | null;
  defaultTimeMinutes: number | null;
  maxNodes: number | null;
  /** 'ALL' or the names allowed. */
  allowQos: string[];
  nodeNames: string[];
}

export interface NodeInfo {
  name: string;
  /** Base state, lower case: idle, mixed, allocated, down, drained, … */
  state: string;
  /** Down, drained or not responding: unusable. */
  down: boolean;
  cpus: number;
  allocCpus: number;
  gpus: number;
  allocGpus: number;
  memoryMb: number;
  gres: string;
  partitions: string[];
}

export interface Association {
  user: string;
  account: string;
}

/** What the poller reads of the cluster besides the queue. */
export interface ClusterInfo {
  partitions: PartitionInfo[];
  nodes: NodeInfo[];
  qos: string[];
  associations: Association[];
}

export interface SchedulerReader {
  readonly name: string;
  /** Every job in the queue (pending, running, and those that ended within the scheduler's memory). */
  readQueue(): Promise<QueueJob[]>;
  /** These jobs, as the queue knows them now (absent ids are no longer there). */
  readJobs(ids: string[]): Promise<QueueJob[]>;
  readCluster(): Promise<ClusterInfo>;
}

/** A submission as the worker gets it: paths already checked against the user's roots. */
export interface SubmitRequest {
  account: string;
  partition: string;
  qos?: string;
  nodes: number;
  tasks: number;
  cpusPerTask: number;
  gpus: number;
  memoryMb: number;
  timeLimitMinutes: number;
  jobName: string;
  /** Host paths. */
  workDir: string;
  output?: string;
  error?: string;
  /** Exactly one: the script's text, or a host path the scheduler reads as the user. */
  script?: string;
  scriptPath?: string;
}

export type JobSignal = 'cancel' | 'hold' | 'release';

export interface HistoryRequest {
  user: string;
  /** ms. */
  start: number;
  end: number;
  state?: string;
  account?: string;
  /** One job (any state, any time): the detail of a job the queue no longer holds. */
  jobId?: string;
}

/** Calls made as the user (inside the user's worker). */
export interface SchedulerUserCalls {
  submit(req: SubmitRequest, env: Record<string, string>): Promise<{ jobId: string }>;
  /** Acts on each job; one refused job does not fail the others. */
  signal(action: JobSignal, ids: string[]): Promise<{ jobId: string; ok: boolean; reason: string }[]>;
  history(req: HistoryRequest): Promise<QueueJob[]>;
  /** The scheduler's full record of one job (with stdout/stderr paths), null when it no longer knows it. */
  detail(jobId: string): Promise<QueueJob | null>;
}

/** Finished states (what a history shows and what leaves the running/pending lists). */
export const ACTIVE_STATES = new Set([
  'PENDING',
  'RUNNING',
  'SUSPENDED',
  'COMPLETING',
  'CONFIGURING',
  'REQUEUED',
  'RESIZING',
  'SIGNALING',
  'STAGE_OUT',
  'STOPPED',
]);
export const RUNNING_STATES = new Set([
  'RUNNING',
  'COMPLETING',
  'CONFIGURING',
  'SIGNALING',
  'STAGE_OUT',
  'SUSPENDED',
  'STOPPED',
]);
export const PENDING_STATES = new Set(['PENDING', 'REQUEUED', 'RESIZING']);
