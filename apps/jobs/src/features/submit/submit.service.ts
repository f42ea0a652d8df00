import type { PartitionsData, SubmitBody } from '@hpc/contracts';
import type { ServiceUser } from '@hpc/cluster-kit';
import type { JobsDeps } from '../../deps';
import type { QueueJob } from '../../scheduler/scheduler';
import { accountsOf, checkAccount, rightsNow } from '../accounts';
import { partitionsOf } from '../../queue/job-views';
import { submittedKey } from '../../queue/submitted';
import { checkScript } from '../../worker/job-worker';
import { scopeOf, workerOf } from '../../worker/worker-scope';

const MONTH = 30 * 24 * 3600_000;

/** Partitions and accounts for the form, and the submission with its rules (issue 22 §2). */
export function createSubmitService(deps: JobsDeps) {
  return {
    async partitions(user: ServiceUser): Promise<PartitionsData> {
      const [snap, rights] = await Promise.all([deps.view.current(), rightsNow(deps, user)]);
      return {
        partitions: partitionsOf(snap?.cluster ?? null),
        accounts: accountsOf(rights, snap?.cluster ?? null),
        updatedAt: snap?.at ?? 0,
      };
    },

    /**
     * The rules first, in this order, none of which asks the scheduler: single mode refuses; the account must be
     * the user's here and usable now (the portal's answer of this moment: a disabled account is refused at once,
     * "612007"); the script is text of at most 1 MiB. Then, in the user's worker as the user: the working
     * directory, script file and output folders inside the user's roots, and sbatch. The new job is read back
     * (that one job) and recorded as the user's latest action, so the lists show it at once.
     */
    async submit(user: ServiceUser, body: SubmitBody): Promise<{ jobId: string }> {
      const worker = workerOf(deps);
      const [rights, snap] = await Promise.all([rightsNow(deps, user), deps.view.current()]);
      checkAccount(rights, snap?.cluster ?? null, body.account, deps.config.JOBS_CLUSTER_ID, deps.now());
      if (body.script !== undefined) checkScript(body.script);
      const { jobId } = await worker.submit(scopeOf(user), body);
      const at = deps.now();
      const [fresh] = await deps.reader.readJobs([jobId]).catch(() => [] as QueueJob[]);
      await deps.view.noteOwn(user.cun, [fresh ?? placeholder(user, body, jobId, at)], at);
      const resolveOut = (p: string | undefined) =>
        (p
          ? p.startsWith('/')
            ? p
            : `${body.workDir.replace(/\/+$/, '')}/${p}`
          : `${body.workDir.replace(/\/+$/, '')}/slurm-%j.out`
        ).replace(/%j/g, jobId);
      await deps.kv.set(
        submittedKey(jobId),
        JSON.stringify({ stdout: resolveOut(body.output), stderr: resolveOut(body.error ?? body.output) }),
        MONTH,
      );
      return { jobId };
    },
  };
}

/** What a just-submitted job is known as when reading it back failed (the scheduler busy): pending, as asked. */
function placeholder(user: ServiceUser, b: SubmitBody, jobId: string, at: number): QueueJob {
  return {
    jobId,
    name: b.jobName,
    user: user.cun,
    state: 'PENDING',
    reason: 'None',
    account: b.account,
    partition: b.partition,
    qos: b.qos ?? '',
    nodeList: '',
    nodes: b.nodes,
    cpus: b.tasks * b.cpusPerTask,
    gpus: b.gpus,
    tasks: b.tasks,
    cpusPerTask: b.cpusPerTask,
    memoryMb: b.memoryMb,
    submitTime: at,
    startTime: null,
    endTime: null,
    timeLimitMinutes: b.timeLimitMinutes,
    workDir: b.workDir,
    command: '',
    exitCode: '0:0',
  };
}
