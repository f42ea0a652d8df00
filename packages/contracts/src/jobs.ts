import { Type, type Static, type TSchema } from 'typebox';
import { Page, PageQuery } from './common';
import { Envelope } from './envelope';
import { UNSHOWABLE_CLASS } from './limits';

/**
 * The job service of one cluster (issue 22 §2): the cluster's `gridview_service`, health `GET
 * /login/getVersion.action`, every call under the service's prefix in the envelope of the other services. The token
 * travels in the `token` header as for efile. Job ids are strings (Slurm's array tasks are `123_4`); times are ms
 * since the epoch, null where the scheduler has none yet; numbers are numbers.
 */

const Obj = <T extends Record<string, TSchema>>(p: T) => Type.Object(p);
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const ClusterPath = Type.String({ minLength: 1, maxLength: 4096 });
/** A job id as Slurm prints it: digits, or digits_digits for an array task. */
export const JobId = Type.String({ pattern: '^[0-9]{1,12}(_[0-9]{1,9})?$', maxLength: 24 });

/** The largest script a submission takes (1 MiB; issue 22 §2). */
export const JOB_SCRIPT_MAX_BYTES = 1024 * 1024;
/** Most jobs one cancel, hold or release acts on. */
export const JOB_ACTION_MAX_IDS = 500;
/** Where a user's templates live, relative to their home (files they can read; issue 22 §2). */
export const JOB_TEMPLATE_DIR = '.hpc-portal/job-templates';
/** The file extensions E-File offers "submit as job" for. */
export const JOB_SCRIPT_EXTENSIONS = ['slurm', 'sh', 'sbatch'] as const;

/** `GET /login/getVersion.action` (no token): the service answers, with its version and scheduler. */
export const JobVersionResponse = Envelope(
  Obj({ version: Type.String(), scheduler: Type.String(), clusterId: Type.String() }),
);

// ---- partitions and accounts ------------------------------------------------------------------------------------
export const NodeCounts = Obj({
  total: Type.Integer(),
  idle: Type.Integer(),
  /** Fully or partly allocated (Slurm's allocated and mixed). */
  allocated: Type.Integer(),
  /** Down, drained, failing or not responding. */
  down: Type.Integer(),
});
export type NodeCounts = Static<typeof NodeCounts>;

export const Partition = Obj({
  name: Type.String(),
  isDefault: Type.Boolean(),
  /** UP, DOWN, DRAIN, INACTIVE. */
  state: Type.String(),
  /** null: unlimited. */
  maxTimeMinutes: Nullable(Type.Integer()),
  defaultTimeMinutes: Nullable(Type.Integer()),
  maxNodes: Nullable(Type.Integer()),
  /** The QOS a job in this partition may ask for. */
  qos: Type.Array(Type.String()),
  /** Generic resources of its nodes, e.g. `gpu:a100:4` (empty when none). */
  gres: Type.Array(Type.String()),
  nodes: NodeCounts,
  cpus: Obj({ total: Type.Integer(), allocated: Type.Integer() }),
  gpus: Obj({ total: Type.Integer(), allocated: Type.Integer() }),
  /** Largest memory of one node, MiB. */
  maxMemoryMb: Type.Integer(),
  /** Most CPUs of one node. */
  maxCpusPerNode: Type.Integer(),
});
export type Partition = Static<typeof Partition>;

/** An account the user may charge on this cluster. */
export const JobAccount = Obj({
  /** The scheduler's account name (what `submit` takes in `account`). */
  name: Type.String(),
  /** The portal account it belongs to (`accountId`), and that account's status now. */
  portalAccountId: Type.String(),
  status: Type.Union([Type.Literal('Normal'), Type.Literal('Disable')]),
});
export type JobAccount = Static<typeof JobAccount>;

export const PartitionsData = Obj({
  partitions: Type.Array(Partition),
  accounts: Type.Array(JobAccount),
  /** When the scheduler was last read (the poller's snapshot). */
  updatedAt: Type.Integer(),
});
export type PartitionsData = Static<typeof PartitionsData>;
export const PartitionsResponse = Envelope(PartitionsData);

// ---- submit -----------------------------------------------------------------------------------------------------
const Count = (max: number) => Type.Integer({ minimum: 1, maximum: max });
/**
 * A job's name: none of the unshowable characters (limits.ts), no `/`, not `.` or `..`. Slurm keeps any bytes, and the name comes back in the
 * scheduler's text output (a newline in it made lines of its own, read as other jobs: found from outside,
 * 2026-12-01) and in file names through `%x` (`../../tmp/x`, or `..` as a whole name, put the output outside the
 * user's folders).
 */
const JobName = (minLength: number) =>
  Type.String({ minLength, maxLength: 128, pattern: `^(?!\\.\\.?$)[^${UNSHOWABLE_CLASS}/]*$` });
/**
 * An account, partition or QOS name as Slurm's commands take it: no control character (a NUL could not even be
 * passed to the command: found from outside, answered "retry"), no space, no comma (a list to sacct and sbatch).
 */
const SlurmName = (minLength: number) =>
  Type.String({ minLength, maxLength: 64, pattern: '^[^\\u0000-\\u0020\\u007f,]*$' });
export const JobResources = Obj({
  account: SlurmName(1),
  partition: SlurmName(1),
  /** Empty: the association's default QOS. */
  qos: Type.Optional(SlurmName(0)),
  nodes: Count(10_000),
  tasks: Count(1_000_000),
  cpusPerTask: Count(10_000),
  gpus: Type.Integer({ minimum: 0, maximum: 10_000 }),
  /** Memory per node, MiB; 0: the partition's default. */
  memoryMb: Type.Integer({ minimum: 0, maximum: 1024 * 1024 * 1024 }),
  timeLimitMinutes: Count(366 * 24 * 60),
  jobName: JobName(1),
});
export type JobResources = Static<typeof JobResources>;

/**
 * `POST /job/submit.action` (JSON). The script is sent as text (`script`), or named by a file inside the user's
 * roots (`scriptPath`, read as the user): exactly one of the two. `output`/`error` are file paths (Slurm's `%j`
 * and `%x` patterns allowed); empty means Slurm's default `slurm-%j.out` in the working directory.
 */
export const SubmitBody = Obj({
  ...JobResources.properties,
  workDir: ClusterPath,
  script: Type.Optional(Type.String({ maxLength: 2 * JOB_SCRIPT_MAX_BYTES })),
  scriptPath: Type.Optional(ClusterPath),
  output: Type.Optional(Type.String({ maxLength: 4096 })),
  error: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type SubmitBody = Static<typeof SubmitBody>;
export const SubmitResponse = Envelope(Obj({ jobId: JobId }));

// ---- lists ------------------------------------------------------------------------------------------------------
export const JobListState = Type.Union([
  Type.Literal('running'),
  Type.Literal('pending'),
  Type.Literal('all'),
]);
export type JobListState = Static<typeof JobListState>;

export const JobListQuery = Obj({ state: Type.Optional(JobListState), ...PageQuery.properties });
export type JobListQuery = Static<typeof JobListQuery>;

/** One job as the lists show it. */
export const JobSummary = Obj({
  jobId: Type.String(),
  name: Type.String(),
  /** Slurm's state name: PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, TIMEOUT, … */
  state: Type.String(),
  /** Why it pends (Slurm's reason: Priority, Resources, JobHeldUser, …); 'None' otherwise. */
  reason: Type.String(),
  user: Type.String(),
  account: Type.String(),
  partition: Type.String(),
  qos: Type.String(),
  /** The node list (`vm`, `node[01-04]`), '' while pending. */
  nodeList: Type.String(),
  nodes: Type.Integer(),
  cpus: Type.Integer(),
  gpus: Type.Integer(),
  submitTime: Nullable(Type.Integer()),
  startTime: Nullable(Type.Integer()),
  endTime: Nullable(Type.Integer()),
  /** null: no limit. */
  timeLimitMinutes: Nullable(Type.Integer()),
  /** Seconds it has run (or ran); 0 before it starts. */
  elapsedSeconds: Type.Integer(),
  workDir: Type.String(),
});
export type JobSummary = Static<typeof JobSummary>;

/** How fresh the answer is: the poller's last good reading, and why the latest one failed (scheduler outage). */
export const QueueStatus = Obj({
  updatedAt: Type.Integer(),
  /** Set while the scheduler does not answer: the message of the last failed reading, since `downSince`. */
  error: Nullable(Type.String()),
  downSince: Nullable(Type.Integer()),
});
export type QueueStatus = Static<typeof QueueStatus>;

export const JobListData = Obj({
  ...Page(JobSummary).properties,
  /** The user's jobs in the queue by state, whatever the filter. */
  counts: Obj({ running: Type.Integer(), pending: Type.Integer() }),
  status: QueueStatus,
});
export type JobListData = Static<typeof JobListData>;
export const JobListResponse = Envelope(JobListData);

/** `GET /job/history.action`: finished jobs (sacct), ended between `start` and `end` (ms). */
export const JobHistoryQuery = Obj({
  // Up to the year 9999 (a date past it is no date sacct reads: it ran with NaN in its place).
  start: Type.Optional(Type.Integer({ minimum: 0, maximum: 253_402_300_799_000 })),
  end: Type.Optional(Type.Integer({ minimum: 0, maximum: 253_402_300_799_000 })),
  state: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Z_]*$' })),
  account: Type.Optional(SlurmName(0)),
  ...PageQuery.properties,
});
export type JobHistoryQuery = Static<typeof JobHistoryQuery>;

export const JobHistoryEntry = Obj({
  ...JobSummary.properties,
  /** `0:0` style: the exit code and the signal that ended it. */
  exitCode: Type.String(),
});
export type JobHistoryEntry = Static<typeof JobHistoryEntry>;
export const JobHistoryData = Page(JobHistoryEntry);
export type JobHistoryData = Static<typeof JobHistoryData>;
export const JobHistoryResponse = Envelope(JobHistoryData);

// ---- detail -----------------------------------------------------------------------------------------------------
export const JobIdQuery = Obj({ jobId: JobId });
export type JobIdQuery = Static<typeof JobIdQuery>;

export const JobDetail = Obj({
  ...JobHistoryEntry.properties,
  stdout: Type.String(),
  stderr: Type.String(),
  /** The script's path as submitted (Slurm's Command), '' for a script sent as text. */
  command: Type.String(),
  requested: Obj({
    nodes: Type.Integer(),
    tasks: Type.Integer(),
    cpusPerTask: Type.Integer(),
    gpus: Type.Integer(),
    memoryMb: Type.Integer(),
    timeLimitMinutes: Nullable(Type.Integer()),
  }),
  /** Where the answer came from: the live queue, or accounting once the job has left it. */
  source: Type.Union([Type.Literal('queue'), Type.Literal('accounting')]),
});
export type JobDetail = Static<typeof JobDetail>;
export const JobDetailResponse = Envelope(JobDetail);

/** `GET /job/output.action`: the end of a job's stdout or stderr (a live tail: ask again from `offset`). */
export const JobOutputQuery = Obj({
  jobId: JobId,
  stream: Type.Optional(Type.Union([Type.Literal('stdout'), Type.Literal('stderr')])),
  /** Read from this byte; absent: the last `maxBytes` of the file. */
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  maxBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1024 * 1024, default: 64 * 1024 })),
});
export type JobOutputQuery = Static<typeof JobOutputQuery>;
export const JobOutput = Obj({
  path: Type.String(),
  /** The bytes read, as text (invalid UTF-8 replaced). */
  text: Type.String(),
  /** Where the text starts and where to ask from next time. */
  from: Type.Integer(),
  next: Type.Integer(),
  size: Type.Integer(),
  /** The file does not exist (yet). */
  missing: Type.Boolean(),
});
export type JobOutput = Static<typeof JobOutput>;
export const JobOutputResponse = Envelope(JobOutput);

// ---- actions ----------------------------------------------------------------------------------------------------
/** `POST /job/cancel.action`, `/job/hold.action`, `/job/release.action` (JSON). */
export const JobIdsBody = Obj({
  jobIds: Type.Array(JobId, { minItems: 1, maxItems: JOB_ACTION_MAX_IDS }),
});
export type JobIdsBody = Static<typeof JobIdsBody>;
/** Each job's own outcome: one job the scheduler refuses does not fail the others. */
export const JobActionResult = Obj({
  jobId: Type.String(),
  ok: Type.Boolean(),
  code: Type.String(),
  msg: Type.String(),
});
export type JobActionResult = Static<typeof JobActionResult>;
export const JobActionResponse = Envelope(Obj({ results: Type.Array(JobActionResult) }));

// ---- templates --------------------------------------------------------------------------------------------------
/** A template's name: also its file name (`<name>.json`), so letters, digits, CJK, `_`, `-`, `.` and spaces. */
export const TemplateName = Type.String({
  minLength: 1,
  maxLength: 70,
  pattern: '^[\\p{L}\\p{N}_][\\p{L}\\p{N}_. -]*$',
});
export const JobTemplate = Obj({
  name: TemplateName,
  /** Everything of the form but the account (an account may be disabled later) and the cluster. */
  partition: SlurmName(0),
  qos: SlurmName(0),
  nodes: Count(10_000),
  tasks: Count(1_000_000),
  cpusPerTask: Count(10_000),
  gpus: Type.Integer({ minimum: 0, maximum: 10_000 }),
  memoryMb: Type.Integer({ minimum: 0, maximum: 1024 * 1024 * 1024 }),
  timeLimitMinutes: Count(366 * 24 * 60),
  jobName: JobName(0),
  workDir: Type.String({ maxLength: 4096 }),
  script: Type.String({ maxLength: JOB_SCRIPT_MAX_BYTES }),
  output: Type.String({ maxLength: 4096 }),
  error: Type.String({ maxLength: 4096 }),
});
export type JobTemplate = Static<typeof JobTemplate>;
/**
 * The ready job of an application-centre entry ("run this application", issue 22 §3): a script and the resources it
 * suggests. No cluster, account, partition or folder: those are the user's and the centre's, chosen on the form
 * (the partition's default, the home). Absent fields keep the form's defaults.
 */
export const AppJobTemplate = Obj({
  script: Type.String({ minLength: 1, maxLength: JOB_SCRIPT_MAX_BYTES }),
  jobName: Type.Optional(JobName(1)),
  nodes: Type.Optional(Count(10_000)),
  tasks: Type.Optional(Count(1_000_000)),
  cpusPerTask: Type.Optional(Count(10_000)),
  gpus: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  memoryMb: Type.Optional(Type.Integer({ minimum: 0, maximum: 1024 * 1024 * 1024 })),
  timeLimitMinutes: Type.Optional(Count(366 * 24 * 60)),
});
export type AppJobTemplate = Static<typeof AppJobTemplate>;
export const JobTemplateEntry = Obj({ ...JobTemplate.properties, updatedAt: Type.Integer() });
export type JobTemplateEntry = Static<typeof JobTemplateEntry>;
/**
 * The list names the templates only; one template is read when it is chosen (`TemplateGetResponse`). A list of whole
 * templates let one user's 200 files of 2 MB be read and parsed by the service on every open of the Submit tab,
 * stalling every other request of the process (found from outside, 2026-12-01).
 */
export const JobTemplateSummary = Obj({ name: TemplateName, updatedAt: Type.Integer() });
export type JobTemplateSummary = Static<typeof JobTemplateSummary>;
export const TemplateListResponse = Envelope(Obj({ list: Type.Array(JobTemplateSummary) }));
export const TemplateNameQuery = Obj({ name: TemplateName });
export const TemplateGetResponse = Envelope(JobTemplateEntry);
export const TemplateDeleteBody = Obj({ name: TemplateName });
export type TemplateDeleteBody = Static<typeof TemplateDeleteBody>;
export const TemplateSaveResponse = Envelope(Obj({ name: Type.String() }));

// ---- dashboard --------------------------------------------------------------------------------------------------
/** `GET /job/overview.action`: the Dashboard's job widgets for one cluster, from the poller alone. */
export const JobOverview = Obj({
  counts: Obj({ running: Type.Integer(), pending: Type.Integer() }),
  /** The user's latest jobs in the queue, newest first. */
  recent: Type.Array(JobSummary),
  partitions: Type.Array(Partition),
  status: QueueStatus,
});
export type JobOverview = Static<typeof JobOverview>;
export const JobOverviewResponse = Envelope(JobOverview);
