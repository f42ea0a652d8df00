import crypto from 'node:crypto';
import type { RunCommand } from '../command';
import type { ClusterInfo, QueueJob, SchedulerReader } from '../scheduler';
import { parseAssociations, parsePartitions, parseQos, parseSinfoJson } from './cluster-parse';
import { reasonOf } from './refusals';
import { parseSqueueJson } from './squeue-parse';
import { gpusOfTres, minutesOf } from './slurm-values';

export interface SlurmOptions {
  run: RunCommand;
  /** Folder of Slurm's commands ('' = the PATH). */
  binDir?: string;
  /** Environment of every command (SLURM_CONF when not the default). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

export const bin = (o: Pick<SlurmOptions, 'binDir'>, cmd: string) =>
  o.binDir ? `${o.binDir.replace(/\/+$/, '')}/${cmd}` : cmd;

/**
 * The targeted read's separators hold a secret of that read: a job's name and working directory are any bytes its
 * owner gave `sbatch` (newlines, the unit separator), and with fixed separators a name that held a forged line
 * (`x\n8␟RUNNING␟…␟wangwu…`) was taken for job 8's line, another user's job for the attacker's (found from outside,
 * 2026-12-01). A name written before the read cannot hold the read's secret.
 */
export interface SqueueMarks {
  /** Starts every job's record. */
  record: string;
  /** Between two fields. */
  field: string;
}
export function squeueMarks(): SqueueMarks {
  const secret = crypto.randomBytes(12).toString('hex');
  return { record: `\x1e${secret}\x1e`, field: `\x1f${secret}\x1f` };
}
/** `squeue -o` fields of a targeted read. */
const SQUEUE_TEXT = [
  '%i',
  '%T',
  '%r',
  '%u',
  '%a',
  '%P',
  '%q',
  '%N',
  '%D',
  '%C',
  '%V',
  '%S',
  '%e',
  '%l',
  '%b',
  '%Z',
  '%j',
];

const ms = (v: string | undefined) => (v && /^\d+$/.test(v) && v !== '0' ? Number(v) * 1000 : null);

/** `squeue -o`'s format for these marks: each record starts with its mark, fields between field marks. */
export const squeueFormat = (m: SqueueMarks) => m.record + SQUEUE_TEXT.join(m.field);

/** The records of the targeted read (squeue ends each with a newline, which is not part of the job's name). */
export function parseSqueueText(text: string, m: SqueueMarks): QueueJob[] {
  const out: QueueJob[] = [];
  for (const record of text.split(m.record).slice(1)) {
    const f = record.replace(/\n$/, '').split(m.field);
    if (f.length !== SQUEUE_TEXT.length) continue;
    const [
      jobId,
      state,
      reason,
      user,
      account,
      partition,
      qos,
      nodeList,
      nodes,
      cpus,
      submit,
      start,
      end,
      limit,
      tres,
      workDir,
      name,
    ] = f;
    const pending = state === 'PENDING' || state === 'REQUEUED';
    out.push({
      jobId: jobId ?? '',
      name: name ?? '',
      user: user ?? '',
      state: state ?? '',
      reason: reason || 'None',
      account: account ?? '',
      partition: partition ?? '',
      qos: qos ?? '',
      nodeList: nodeList ?? '',
      nodes: Number(nodes) || 1,
      cpus: Number(cpus) || 1,
      gpus: gpusOfTres((tres ?? '').replace(/gres:gpu:/g, 'gres/gpu=')),
      tasks: 1,
      cpusPerTask: 1,
      memoryMb: 0,
      submitTime: ms(submit),
      startTime: pending ? null : ms(start),
      endTime: pending || state === 'RUNNING' ? null : ms(end),
      timeLimitMinutes: minutesOf(limit),
      workDir: workDir ?? '',
      command: '',
      exitCode: '0:0',
    });
  }
  return out;
}

/**
 * The service's reads of Slurm (as the service's own account). The whole queue comes from `squeue --json`; a few
 * jobs by id from the text format, because 22.05's `--json` ignores `--jobs` and would read the whole queue again.
 */
export function slurmReader(o: SlurmOptions): SchedulerReader {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...o.env };
  const timeoutMs = o.timeoutMs ?? 60_000;
  const run = async (cmd: string, args: string[], extraEnv: Record<string, string> = {}) => {
    const r = await o.run(bin(o, cmd), args, { env: { ...env, ...extraEnv }, timeoutMs });
    if (r.code !== 0) throw new Error(`${cmd} failed: ${reasonOf(r.stderr) || `exit ${r.code}`}`);
    return r.stdout;
  };
  return {
    name: 'slurm',
    async readQueue() {
      return parseSqueueJson(await run('squeue', ['--json', '--all']));
    },
    async readJobs(ids) {
      if (ids.length === 0) return [];
      const marks = squeueMarks();
      const text = await run(
        'squeue',
        ['-h', '--all', '-t', 'all', `--jobs=${ids.join(',')}`, '-o', squeueFormat(marks)],
        {
          SLURM_TIME_FORMAT: '%s',
        },
      ).catch((e: Error) => {
        // Every id unknown: squeue fails with "Invalid job id specified" (they have all left the queue).
        if (/Invalid job id/i.test(e.message)) return '';
        throw e;
      });
      // The jobs asked for, each once (a record is the read's own, see SqueueMarks).
      const asked = new Set(ids);
      const seen = new Set<string>();
      return parseSqueueText(text, marks).filter(
        (j) => asked.has(j.jobId) && !seen.has(j.jobId) && seen.add(j.jobId),
      );
    },
    async readCluster(): Promise<ClusterInfo> {
      const [nodes, parts, qos, assoc] = await Promise.all([
        run('sinfo', ['--json']).then(parseSinfoJson),
        run('scontrol', ['show', 'partition', '-o']).then(parsePartitions),
        run('sacctmgr', ['-n', '-P', 'show', 'qos', 'format=name']).then(parseQos),
        run('sacctmgr', ['-n', '-P', 'show', 'assoc', 'format=user,account']).then(parseAssociations),
      ]);
      for (const p of parts)
        p.nodeNames = nodes.filter((n) => n.partitions.includes(p.name)).map((n) => n.name);
      return { partitions: parts, nodes, qos, associations: assoc };
    },
  };
}
