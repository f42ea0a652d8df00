import {
  ErrorCodes,
  JobCodes,
  Limits,
  localisedErrorMessage,
  type JobActionResult,
  type JobDetail,
  type JobHistoryData,
  type JobHistoryQuery,
  type JobListData,
  type JobListQuery,
  type JobOutput,
  type JobOutputQuery,
  type JobOverview,
} from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { ServiceUser } from '@hpc/cluster-kit';
import type { JobsDeps } from '../../deps';
import type { JobSignal, QueueJob } from '../../scheduler/scheduler';
import { checkUsable, rightsNow } from '../accounts';
import { historyEntryOf, isPending, isRunning, partitionsOf, summaryOf } from '../../queue/job-views';
import { submittedKey } from '../../queue/submitted';
import { scopeOf, workerOf } from '../../worker/worker-scope';

const DAY = 24 * 3600_000;

/** Why Slurm refused an action on one job, as the code the page translates. */
function codeOfActionFailure(reason: string): string {
  if (/Invalid job id|permission denied|Invalid user id/i.test(reason)) return JobCodes.notFound;
  if (
    /already finished|not pending|no longer pending|already completing|Job is not held|Requested operation is presently disabled/i.test(
      reason,
    )
  )
    return JobCodes.state;
  return JobCodes.refused;
}

const page = <T>(items: T[], q: { pageNum?: number; pageSize?: number }) => {
  const pageSize = q.pageSize ?? Limits.defaultPageSize;
  const pageNum = q.pageNum ?? 1;
  return {
    list: items.slice((pageNum - 1) * pageSize, pageNum * pageSize),
    total: items.length,
    pageNum,
    pageSize,
  };
};

/** The job calls that read the poller's snapshot, and those that act, each as the user (issue 22 §2). */
export function createJobsService(deps: JobsDeps) {
  const now = () => deps.now();

  /** The user's own job by id: the snapshot (with the user's own actions), else the queue asked now. */
  async function ownJob(user: ServiceUser, jobId: string): Promise<QueueJob | null> {
    const { jobs } = await deps.view.jobsOf(user.cun);
    const known = jobs.find((j) => j.jobId === jobId);
    if (known) return known;
    const [fresh] = await deps.reader.readJobs([jobId]).catch(() => []);
    return fresh && fresh.user === user.cun ? fresh : null;
  }

  return {
    async list(user: ServiceUser, q: JobListQuery): Promise<JobListData> {
      const { jobs } = await deps.view.jobsOf(user.cun);
      const t = now();
      const state = q.state ?? 'all';
      const running = jobs.filter(isRunning);
      const pending = jobs.filter(isPending);
      const chosen = state === 'running' ? running : state === 'pending' ? pending : [...running, ...pending];
      const p = page(chosen, q);
      return {
        ...p,
        list: p.list.map((j) => summaryOf(j, t)),
        counts: { running: running.length, pending: pending.length },
        status: await deps.poller.status(),
      };
    },

    async overview(user: ServiceUser): Promise<JobOverview> {
      const [{ jobs }, snap, status] = await Promise.all([
        deps.view.jobsOf(user.cun),
        deps.view.current(),
        deps.poller.status(),
      ]);
      const t = now();
      return {
        counts: { running: jobs.filter(isRunning).length, pending: jobs.filter(isPending).length },
        recent: jobs.slice(0, 5).map((j) => summaryOf(j, t)),
        partitions: partitionsOf(snap?.cluster ?? null),
        status,
      };
    },

    async history(user: ServiceUser, q: JobHistoryQuery): Promise<JobHistoryData> {
      const end = q.end ?? now();
      const start = q.start ?? end - 7 * DAY;
      const jobs = await workerOf(deps).history(scopeOf(user), {
        start,
        end,
        ...(q.state ? { state: q.state } : {}),
        ...(q.account ? { account: q.account } : {}),
      });
      // sacct answers for the user asked only; a record of another user would be a scheduler's mistake: dropped.
      const mine = jobs
        .filter((j) => j.user === user.cun)
        .sort((a, b) => (b.endTime ?? 0) - (a.endTime ?? 0));
      const p = page(mine, q);
      const t = now();
      return { ...p, list: p.list.map((j) => historyEntryOf(j, t)) };
    },

    async detail(user: ServiceUser, jobId: string): Promise<JobDetail> {
      const worker = workerOf(deps);
      const queued = await ownJob(user, jobId);
      const record = await worker.detail(scopeOf(user), jobId);
      // Slurm shows any job to anyone unless PrivateData says otherwise: the owner is checked here, always.
      const live = record && record.user === user.cun ? record : null;
      let base: QueueJob | null = queued ? { ...queued, ...(live ?? {}) } : live;
      let source: JobDetail['source'] = 'queue';
      if (!base) {
        const [done] = await worker.history(scopeOf(user), { jobId, start: 0, end: now() });
        if (!done || done.user !== user.cun) throw new AppError(JobCodes.notFound);
        base = done;
        source = 'accounting';
      }
      const saved = await deps.kv.get(submittedKey(jobId));
      const submitted = saved ? (JSON.parse(saved) as { stdout: string; stderr: string }) : null;
      const fallback = `${base.workDir.replace(/\/+$/, '')}/slurm-${jobId}.out`;
      const t = now();
      return {
        ...historyEntryOf(base, t),
        stdout: base.stdout || submitted?.stdout || fallback,
        stderr: base.stderr || submitted?.stderr || base.stdout || submitted?.stdout || fallback,
        command: base.command,
        requested: {
          nodes: base.nodes,
          tasks: base.tasks,
          cpusPerTask: base.cpusPerTask,
          gpus: base.gpus,
          memoryMb: base.memoryMb,
          timeLimitMinutes: base.timeLimitMinutes,
        },
        source,
      };
    },

    async output(user: ServiceUser, q: JobOutputQuery): Promise<JobOutput> {
      const detail = await this.detail(user, q.jobId);
      const file = q.stream === 'stderr' ? detail.stderr : detail.stdout;
      return workerOf(deps).output(scopeOf(user), file, q.offset ?? null, q.maxBytes ?? 64 * 1024);
    },

    /**
     * Cancel, hold or release: each id must be one of the user's jobs (the snapshot, else the queue asked now) before
     * the scheduler is asked; others answer JOB_NOT_FOUND without a command run. Releasing starts work again, so it
     * needs a usable account; cancelling and holding never do (a user can always stop spending). The not-found
     * results are said in the language of `acceptLanguage` (the request's header); Slurm's own reasons are relayed as
     * Slurm said them.
     */
    async act(
      user: ServiceUser,
      action: JobSignal,
      jobIds: string[],
      acceptLanguage?: string,
    ): Promise<JobActionResult[]> {
      const worker = workerOf(deps);
      if (action === 'release') checkUsable(await rightsNow(deps, user), deps.config.JOBS_CLUSTER_ID, now());
      const ids = [...new Set(jobIds)];
      const { jobs } = await deps.view.jobsOf(user.cun);
      const mine = new Set(jobs.map((j) => j.jobId));
      const unknown = ids.filter((id) => !mine.has(id));
      if (unknown.length > 0) {
        for (const j of await deps.reader.readJobs(unknown)) if (j.user === user.cun) mine.add(j.jobId);
      }
      const own = ids.filter((id) => mine.has(id));
      const done = own.length > 0 ? await worker.signal(scopeOf(user), action, own) : [];
      const byId = new Map(done.map((r) => [r.jobId, r]));
      // The new states show at once: these jobs are read again and kept as the user's latest actions.
      // (The view keeps only the user's own of what comes back: queue-view.ts `jobsOf`.)
      if (own.length > 0) await deps.view.noteOwn(user.cun, await deps.reader.readJobs(own).catch(() => []));
      const notFound = localisedErrorMessage(
        JobCodes.notFound,
        ErrorCodes[JobCodes.notFound].en,
        acceptLanguage,
      );
      return ids.map((jobId) => {
        const r = byId.get(jobId);
        if (!r) return { jobId, ok: false, code: JobCodes.notFound, msg: notFound.msg };
        if (r.ok) return { jobId, ok: true, code: '0', msg: 'success' };
        return { jobId, ok: false, code: codeOfActionFailure(r.reason), msg: r.reason };
      });
    },
  };
}
export type JobsService = ReturnType<typeof createJobsService>;
