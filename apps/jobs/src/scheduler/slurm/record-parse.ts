import crypto from 'node:crypto';
import type { QueueJob } from '../scheduler';
import { factTimes, gpusOfTres, keyValues, mbOf, minutesOf, textOf, tresMap } from './slurm-values';

/**
 * The fields the history asks `sacct` for, in this order, JobName last. `--parsable2` separates them with a mark
 * secret to the read (`sacctMark`, `--delimiter`), not `|`: a job name or folder given to `sbatch` directly may hold
 * `|` and newlines, and with fixed separators a user's job name wrote whole records into their history (found from
 * outside, 2026-12-01; the targeted squeue read has the same marks). Times come as
 * epoch seconds (SLURM_TIME_FORMAT=%s). Slurm 22.05's `sacct --json` reports every exit code as 0 (a bug of its
 * data_parser v0.0.38), so the history reads the parsable text instead (docs/DECISIONS.md).
 */
export const SACCT_FORMAT = [
  'JobID',
  'State',
  'ExitCode',
  'Account',
  'Partition',
  'QOS',
  'User',
  'NodeList',
  'NNodes',
  'AllocCPUS',
  'ReqCPUS',
  'AllocTRES',
  'ReqTRES',
  'ReqMem',
  'Submit',
  'Start',
  'End',
  'ElapsedRaw',
  'TimelimitRaw',
  'WorkDir',
  'JobName',
];

const epochMs = (v: string | undefined): number | null =>
  v && /^\d+$/.test(v) && v !== '0' ? Number(v) * 1000 : null;
const int = (v: string | undefined, d = 0): number => (v && /^\d+$/.test(v) ? Number(v) : d);

/** A field mark for one `sacct` read: no name written before the read can hold it. */
export function sacctMark(): string {
  return `\x1f${crypto.randomBytes(12).toString('hex')}\x1f`;
}

/**
 * `sacct -X -n -P --delimiter=<mark> --format=<SACCT_FORMAT>` → jobs (allocations only, no steps). A record is a line
 * with exactly the format's marks; a line with none right after one is the rest of its name (sacct ends a record with
 * a newline, and a name may hold one); any other line is a broken record (a folder with a newline) and is left out.
 */
export function parseSacct(text: string, mark: string): QueueJob[] {
  const records: string[][] = [];
  const n = SACCT_FORMAT.length;
  let open = false;
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const parts = line.split(mark);
    if (parts.length === n) {
      records.push(parts);
      open = true;
    } else if (parts.length === 1 && open) {
      const last = records[records.length - 1]!;
      last[n - 1] += `\n${line}`;
    } else open = false;
  }
  return records.map(recordOf);
}

function recordOf(f: string[]): QueueJob {
  const [
    jobId,
    state,
    exitCode,
    account,
    partition,
    qos,
    user,
    nodeList,
    nnodes,
    alloc,
    reqCpus,
    allocTres,
    reqTres,
    reqMem,
    submit,
    start,
    end,
    elapsed,
    limit,
    workDir,
    name,
  ] = f;
  const started = epochMs(start);
  const cpus = int(alloc) || int(reqCpus, 1);
  return {
    jobId: jobId ?? '',
    name: name ?? '',
    user: user ?? '',
    // "CANCELLED by 1004" → CANCELLED.
    state: (state ?? '').split(' ')[0] ?? '',
    reason: 'None',
    account: account ?? '',
    partition: partition ?? '',
    qos: qos ?? '',
    nodeList: nodeList === 'None assigned' ? '' : (nodeList ?? ''),
    nodes: int(nnodes, 1),
    cpus,
    gpus: gpusOfTres(allocTres || reqTres),
    tasks: 1,
    cpusPerTask: cpus,
    memoryMb: mbOf(reqMem) || mbOf(tresMap(reqTres).get('mem')),
    submitTime: epochMs(submit),
    startTime: started,
    endTime: epochMs(end),
    timeLimitMinutes: limit && /^\d+$/.test(limit) ? Number(limit) : null,
    elapsedSeconds: int(elapsed),
    workDir: workDir ?? '',
    command: '',
    exitCode: exitCode ?? '0:0',
  };
}

/**
 * `scontrol show job -o <id>`, run with `SLURM_TIME_FORMAT=%s`: the one place 22.05 gives a job's stdout and stderr
 * paths (its squeue JSON leaves them empty). Its times as the queue's (`factTimes`): the detail of a running job
 * had no start (so nothing elapsed) when they were not read. Null when the line is not a job record.
 */
export function parseScontrolJob(text: string): (Partial<QueueJob> & { jobId: string; user: string }) | null {
  const line = text.split('\n').find((l) => l.startsWith('JobId='));
  if (!line) return null;
  const kv = keyValues(line);
  const user = /^([^(]+)/.exec(kv.get('UserId') ?? '')?.[1] ?? '';
  const tres = tresMap(kv.get('TRES'));
  const state = kv.get('JobState') ?? '';
  return {
    jobId:
      kv.get('ArrayJobId') && kv.get('ArrayTaskId')
        ? `${kv.get('ArrayJobId')}_${kv.get('ArrayTaskId')}`
        : (kv.get('JobId') ?? ''),
    name: kv.get('JobName') ?? '',
    user,
    state,
    reason: kv.get('Reason') ?? 'None',
    account: kv.get('Account') ?? '',
    partition: kv.get('Partition') ?? '',
    qos: kv.get('QOS') ?? '',
    nodeList: textOf(kv.get('NodeList')),
    nodes: int(kv.get('NumNodes'), 1),
    cpus: int(kv.get('NumCPUs'), 1),
    tasks: int(kv.get('NumTasks'), 1),
    cpusPerTask: int(kv.get('CPUs/Task'), 1),
    gpus: gpusOfTres(kv.get('TRES')),
    memoryMb: mbOf(tres.get('mem')),
    timeLimitMinutes: minutesOf(kv.get('TimeLimit')),
    submitTime: epochMs(kv.get('SubmitTime')),
    ...factTimes(state, epochMs(kv.get('StartTime')), epochMs(kv.get('EndTime'))),
    workDir: textOf(kv.get('WorkDir')),
    command: textOf(kv.get('Command')),
    exitCode: kv.get('ExitCode') ?? '0:0',
    stdout: textOf(kv.get('StdOut')),
    stderr: textOf(kv.get('StdErr')),
  };
}
