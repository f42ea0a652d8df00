import { AppError } from '@hpc/server-kit';
import { JobCodes } from '@hpc/contracts';
import type { JobSignal, SchedulerUserCalls, SubmitRequest } from '../scheduler';
import { bin, type SlurmOptions } from './slurm-reader';
import { classifyRefusal, isOutage, reasonOf } from './refusals';
import { parseSacct, parseScontrolJob, SACCT_FORMAT, sacctMark } from './record-parse';

/** The states a history shows by default: every way a job can end. */
const FINISHED = 'CA,CD,F,TO,NF,OOM,PR,DL,BF';

/** `YYYY-MM-DDTHH:MM:SS` in this machine's time zone, as sacct's -S/-E take it. */
function slurmTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** sbatch's options for a request: one argv entry each (`--opt=value`), so no value is ever parsed as an option. */
export function sbatchArgs(req: SubmitRequest): string[] {
  const args = [
    '--parsable',
    `--chdir=${req.workDir}`,
    `--account=${req.account}`,
    `--partition=${req.partition}`,
    `--nodes=${req.nodes}`,
    `--ntasks=${req.tasks}`,
    `--cpus-per-task=${req.cpusPerTask}`,
    `--time=${req.timeLimitMinutes}`,
    `--job-name=${req.jobName}`,
  ];
  if (req.qos) args.push(`--qos=${req.qos}`);
  if (req.gpus > 0) args.push(`--gpus=${req.gpus}`);
  if (req.memoryMb > 0) args.push(`--mem=${req.memoryMb}M`);
  if (req.output) args.push(`--output=${req.output}`);
  if (req.error) args.push(`--error=${req.error}`);
  // The environment the job gets is exactly the one given (the user's own, made by the worker), never the service's.
  args.push('--export=ALL');
  if (req.scriptPath) args.push(req.scriptPath);
  return args;
}

/** Job ids of the lines of scancel -v / scontrol hold|release that say a job failed, with the reason. */
function failuresOf(stderr: string, ids: string[]): Map<string, string> {
  const failed = new Map<string, string>();
  for (const line of stderr.split('\n')) {
    // scancel: "scancel: error: Kill job error on job id 7: Access/permission denied"
    // scontrol: "Invalid user id for job 7", "Job has already finished for job 5"
    const m = /job id (\S+): (.+)$/i.exec(line) ?? /^(.+) for job (\S+)$/.exec(line.trim());
    if (!m) continue;
    const [id, reason] = /job id/i.test(line) ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
    if (ids.includes(id)) failed.set(id, reason.trim());
  }
  return failed;
}

/** Slurm's side of the calls a user's worker makes, as that user. */
export function slurmUserCalls(o: SlurmOptions): SchedulerUserCalls {
  const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...o.env };
  const timeoutMs = o.timeoutMs ?? 60_000;
  const outage = (stderr: string) =>
    new AppError(JobCodes.schedulerDown, undefined, { data: { reason: reasonOf(stderr) } });
  return {
    async submit(req, env) {
      const r = await o.run(bin(o, 'sbatch'), sbatchArgs(req), {
        env: { ...env, ...o.env },
        // From the job's working directory, so that SLURM_SUBMIT_DIR is the user's folder, not the service's.
        cwd: req.workDir,
        input: req.scriptPath ? '' : req.script,
        timeoutMs,
      });
      const jobId = /^(\d+)/.exec(r.stdout.trim())?.[1];
      if (r.code === 0 && jobId) return { jobId };
      const { code, reason } = classifyRefusal(r.stderr || r.stdout);
      throw new AppError(code, undefined, { data: { reason } });
    },

    async signal(action: JobSignal, ids) {
      const [cmd, args] = action === 'cancel' ? ['scancel', ['-v', ...ids]] : ['scontrol', [action, ...ids]];
      const r = await o.run(bin(o, cmd), args, { env: baseEnv, timeoutMs });
      if (r.code !== 0 && isOutage(r.stderr)) throw outage(r.stderr);
      const failed = failuresOf(r.stderr, ids);
      // A failure Slurm did not tie to a job id fails them all with its reason.
      const general = r.code !== 0 && failed.size === 0 ? reasonOf(r.stderr) || `${cmd} failed` : null;
      return ids.map((jobId) => {
        const reason = failed.get(jobId) ?? general;
        return { jobId, ok: reason === null, reason: reason ?? '' };
      });
    },

    async history(q) {
      const mark = sacctMark();
      const args = [
        '-X',
        '-n',
        '-P',
        `--delimiter=${mark}`,
        `--format=${SACCT_FORMAT.join(',')}`,
        `--user=${q.user}`,
      ];
      if (q.jobId) args.push(`--jobs=${q.jobId}`);
      else {
        args.push(`--starttime=${slurmTime(q.start)}`, `--endtime=${slurmTime(q.end)}`);
        args.push(`--state=${q.state || FINISHED}`);
      }
      if (q.account) args.push(`--accounts=${q.account}`);
      const r = await o.run(bin(o, 'sacct'), args, {
        env: { ...baseEnv, SLURM_TIME_FORMAT: '%s' },
        timeoutMs,
      });
      if (r.code !== 0) {
        if (isOutage(r.stderr) || /slurmdbd|accounting storage/i.test(r.stderr)) throw outage(r.stderr);
        throw new AppError(JobCodes.refused, undefined, { data: { reason: reasonOf(r.stderr) } });
      }
      return parseSacct(r.stdout, mark);
    },

    async detail(jobId) {
      const r = await o.run(bin(o, 'scontrol'), ['show', 'job', '-o', jobId], {
        env: { ...baseEnv, SLURM_TIME_FORMAT: '%s' },
        timeoutMs,
      });
      if (r.code !== 0) {
        if (/Invalid job id/i.test(r.stderr)) return null;
        throw outage(r.stderr);
      }
      const rec = parseScontrolJob(r.stdout);
      return rec ? { ...emptyJob(), ...rec } : null;
    },
  };
}

const emptyJob = () => ({
  jobId: '',
  name: '',
  user: '',
  state: '',
  reason: 'None',
  account: '',
  partition: '',
  qos: '',
  nodeList: '',
  nodes: 1,
  cpus: 1,
  gpus: 0,
  tasks: 1,
  cpusPerTask: 1,
  memoryMb: 0,
  submitTime: null,
  startTime: null,
  endTime: null,
  timeLimitMinutes: null,
  workDir: '',
  command: '',
  exitCode: '0:0',
});
