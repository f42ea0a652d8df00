import type { QueueJob } from '../scheduler';
import { factTimes, gpusOfTres, isPendingLike, mbOf, msOf, num, tresMap } from './slurm-values';

/** The fields of one job of `squeue --json` (Slurm 22.05, data_parser v0.0.38) this service reads. */
interface SqueueJob {
  job_id?: number;
  array_job_id?: number;
  array_task_id?: number | null;
  name?: string;
  user_name?: string;
  job_state?: string;
  state_reason?: string;
  account?: string;
  partition?: string;
  qos?: string;
  nodes?: string;
  node_count?: number;
  cpus?: number;
  tasks?: number;
  cpus_per_task?: number | null;
  memory_per_node?: number | null;
  memory_per_cpu?: number | null;
  tres_req_str?: string;
  tres_alloc_str?: string;
  submit_time?: number;
  start_time?: number;
  end_time?: number;
  time_limit?: number | null;
  current_working_directory?: string;
  command?: string;
  exit_code?: number;
  standard_output?: string;
  standard_error?: string;
}

/** A wait status (as `exit_code` holds it) in Slurm's `code:signal` form. */
export function exitCodeOf(status: unknown): string {
  const s = num(status) ?? 0;
  return (s & 0x7f) !== 0 ? `0:${s & 0x7f}` : `${(s >> 8) & 0xff}:0`;
}

/** One job of the JSON as the service keeps it. */
export function queueJobOf(j: SqueueJob): QueueJob {
  const state = j.job_state ?? 'UNKNOWN';
  const pending = isPendingLike(state);
  const { startTime, endTime } = factTimes(state, msOf(j.start_time), msOf(j.end_time));
  const arrayTask = num(j.array_task_id);
  const jobId =
    arrayTask !== null && j.array_job_id ? `${j.array_job_id}_${arrayTask}` : String(j.job_id ?? '');
  const tasks = num(j.tasks) ?? 1;
  const cpusPerTask =
    num(j.cpus_per_task) ?? Math.max(1, Math.floor((num(j.cpus) ?? 1) / Math.max(1, tasks)));
  const req = tresMap(j.tres_req_str);
  const memoryMb =
    num(j.memory_per_node) ?? ((num(j.memory_per_cpu) ?? 0) * (num(j.cpus) ?? 1) || mbOf(req.get('mem')));
  return {
    jobId,
    name: j.name ?? '',
    user: j.user_name ?? '',
    state,
    reason: j.state_reason || 'None',
    account: j.account ?? '',
    partition: j.partition ?? '',
    qos: j.qos ?? '',
    nodeList: pending ? '' : (j.nodes ?? ''),
    nodes: num(j.node_count) ?? 1,
    cpus: num(j.cpus) ?? 1,
    gpus: gpusOfTres(pending ? j.tres_req_str : j.tres_alloc_str || j.tres_req_str),
    tasks,
    cpusPerTask,
    memoryMb,
    submitTime: msOf(j.submit_time),
    startTime,
    endTime,
    timeLimitMinutes: num(j.time_limit),
    workDir: j.current_working_directory ?? '',
    command: j.command ?? '',
    exitCode: exitCodeOf(j.exit_code),
    ...(j.standard_output ? { stdout: j.standard_output } : {}),
    ...(j.standard_error ? { stderr: j.standard_error } : {}),
  };
}

/**
 * `squeue --json` (all users, all states the controller still holds). Throws when the answer is not that JSON or
 * reports errors: the poller then keeps its last good reading and shows the outage.
 */
export function parseSqueueJson(text: string): QueueJob[] {
  const doc = JSON.parse(text) as { jobs?: SqueueJob[]; errors?: unknown[] };
  if (!Array.isArray(doc.jobs)) throw new Error('squeue --json answered without a jobs list');
  if (Array.isArray(doc.errors) && doc.errors.length > 0)
    throw new Error(`squeue reported errors: ${JSON.stringify(doc.errors).slice(0, 300)}`);
  return doc.jobs.map(queueJobOf);
}
