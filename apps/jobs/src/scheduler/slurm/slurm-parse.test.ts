import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JobCodes } from '@hpc/contracts';
import { parseAssociations, parsePartitions, parseQos, parseSinfoJson } from './cluster-parse';
import { parseSacct, parseScontrolJob, SACCT_FORMAT, sacctMark } from './record-parse';
import { classifyRefusal } from './refusals';
import { parseSqueueJson, exitCodeOf } from './squeue-parse';
import { parseSqueueText, squeueFormat, squeueMarks } from './slurm-reader';
import { sbatchArgs } from './slurm-user-calls';
import { gpusOfGres, gpusOfTres, keyValues, mbOf, minutesOf } from './slurm-values';

/** Output recorded from Slurm 22.05.8 of `npm run start:cluster` (jobs of demo and lisi in every state). */
const recorded = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'recorded', name), 'utf8');

describe('Slurm value formats', () => {
  it('reads durations in minutes, unlimited as null', () => {
    expect(minutesOf('1-00:00:00')).toBe(1440);
    expect(minutesOf('01:00:00')).toBe(60);
    expect(minutesOf('5:00')).toBe(5);
    expect(minutesOf('30')).toBe(30);
    expect(minutesOf('00:00:30')).toBe(1);
    expect(minutesOf('UNLIMITED')).toBeNull();
    expect(minutesOf('garbage')).toBeNull();
  });
  it('reads memory, GPUs of TRES and GRES, exit codes', () => {
    expect(mbOf('24105M')).toBe(24105);
    expect(mbOf('2G')).toBe(2048);
    expect(gpusOfTres('cpu=2,mem=100M,node=1,gres/gpu=2')).toBe(2);
    expect(gpusOfTres('cpu=2,gres/gpu:a100=1,gres/gpu:v100=2')).toBe(3);
    expect(gpusOfTres('cpu=1')).toBe(0);
    expect(gpusOfGres('gpu:a100:4(S:0-1)')).toBe(4);
    expect(gpusOfGres('gpu:a100:2(IDX:0-1),gpu:v100:1(IDX:2)')).toBe(3);
    expect(exitCodeOf(768)).toBe('3:0');
    expect(exitCodeOf(9)).toBe('0:9');
  });
  it('splits key=value lines whose values hold spaces', () => {
    const kv = keyValues('JobId=7 JobName=my job name UserId=demo(1004) WorkDir=/a b/c StdOut=/x');
    expect(kv.get('JobName')).toBe('my job name');
    expect(kv.get('WorkDir')).toBe('/a b/c');
    expect(kv.get('StdOut')).toBe('/x');
  });
});

describe('recorded Slurm output', () => {
  it('parses squeue --json: states, reasons, users, resources, times', () => {
    const jobs = parseSqueueJson(recorded('squeue.json'));
    expect(jobs.map((j) => j.jobId)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    const byId = new Map(jobs.map((j) => [j.jobId, j]));
    expect(byId.get('4')).toMatchObject({
      state: 'PENDING',
      reason: 'JobHeldUser',
      user: 'demo',
      account: 'acct-demo-hf',
      partition: 'short',
      cpus: 2,
      memoryMb: 100,
      timeLimitMinutes: 5,
      startTime: null,
      nodeList: '',
    });
    expect(byId.get('6')).toMatchObject({
      state: 'RUNNING',
      user: 'lisi',
      name: 'lisi 作业',
      cpus: 2,
      nodeList: 'vm',
    });
    expect(byId.get('6')!.startTime).toBeGreaterThan(0);
    expect(byId.get('5')).toMatchObject({ state: 'FAILED', exitCode: '3:0' });
    expect(byId.get('7')!.command).toBe('');
    expect(() => parseSqueueJson('{"errors":[],"nope":1}')).toThrow(/jobs/);
    expect(() => parseSqueueJson('not json')).toThrow();
  });

  it('parses sinfo --json nodes and scontrol partitions', () => {
    const nodes = parseSinfoJson(recorded('sinfo.json'));
    expect(nodes).toEqual([
      expect.objectContaining({
        name: 'vm',
        state: 'allocated',
        down: false,
        cpus: 2,
        partitions: ['normal', 'short'],
      }),
    ]);
    const parts = parsePartitions(recorded('scontrol-partitions.txt'));
    expect(parts).toEqual([
      expect.objectContaining({
        name: 'normal',
        isDefault: true,
        maxTimeMinutes: 1440,
        defaultTimeMinutes: 60,
        maxNodes: null,
        allowQos: ['ALL'],
      }),
      expect.objectContaining({
        name: 'short',
        isDefault: false,
        maxTimeMinutes: 30,
        defaultTimeMinutes: 10,
      }),
    ]);
    expect(parseAssociations(recorded('sacctmgr-assoc.txt'))).toContainEqual({
      user: 'demo',
      account: 'acct-demo-hf',
    });
    expect(parseAssociations(recorded('sacctmgr-assoc.txt')).some((a) => a.user === '')).toBe(false);
    expect(parseQos(recorded('sacctmgr-qos.txt'))).toEqual(['normal']);
  });

  it('parses sacct: exit codes, "CANCELLED by", elapsed, a name with | or a newline, no forged record', () => {
    // The recording was made with `|`; the read's own mark stands in for it.
    const mark = sacctMark();
    const text = recorded('sacct.txt').replaceAll('|', mark);
    const jobs = parseSacct(text, mark);
    const byId = new Map(jobs.map((j) => [j.jobId, j]));
    expect(byId.get('5')).toMatchObject({ state: 'FAILED', exitCode: '3:0', user: 'demo' });
    expect(byId.get('3')).toMatchObject({ state: 'CANCELLED', elapsedSeconds: 4, workDir: '/tmp' });
    expect(byId.get('1')).toMatchObject({
      state: 'COMPLETED',
      timeLimitMinutes: 60,
      workDir: '/public/home/demo',
    });
    const first = text.split('\n')[0]!;
    const odd = parseSacct(first.replace(new RegExp(`${mark}t1$`), `${mark}a|b`), mark);
    expect(odd[0]!.name).toBe('a|b');
    // A name holding a newline and a whole record in `|` (or in another read's mark): one job, its whole name.
    const forgedLine = first.replaceAll(mark, '|').replace(/^\d+/, '999');
    const other = sacctMark();
    const named = `${first.replace(/t1$/, `x\n${forgedLine}\n${forgedLine.replaceAll('|', other)}`)}\n`;
    const read = parseSacct(named, mark);
    expect(read.map((j) => j.jobId)).toEqual([first.split(mark)[0]]);
    expect(read[0]!.name).toBe(`x\n${forgedLine}\n${forgedLine.replaceAll('|', other)}`);
    // A broken record (a folder with a newline splits it) is left out, and so is what follows it.
    const workDir = SACCT_FORMAT.indexOf('WorkDir');
    const broken = first
      .split(mark)
      .map((v, i) => (i === workDir ? '/tmp/a\nb' : v))
      .join(mark);
    expect(parseSacct(`${broken}\n${text}`, mark).map((j) => j.jobId)).toEqual(jobs.map((j) => j.jobId));
  });

  it('parses scontrol show job: stdout and stderr paths, the owner', () => {
    const lines = recorded('scontrol-jobs.txt').split('\n');
    const held = parseScontrolJob(lines[1]!);
    expect(held).toMatchObject({
      jobId: '7',
      user: 'demo',
      stdout: '/tmp/out-7.txt',
      stderr: '/tmp/out-7.txt',
      command: '',
      workDir: '/tmp',
    });
    expect(parseScontrolJob('slurm_load_jobs error: Invalid job id specified')).toBeNull();
  });

  it('reads scontrol show job times as the queue does (SLURM_TIME_FORMAT=%s): a running job started, a pending one not', () => {
    // Recorded from Slurm 22.05 on this project's one-machine cluster: one job running, one held.
    const [running, held] = recorded('scontrol-jobs-epoch.txt')
      .split('\n')
      .map((l) => parseScontrolJob(l)!);
    expect(running).toMatchObject({
      jobId: '15',
      state: 'RUNNING',
      submitTime: 1796040866_000,
      startTime: 1796040866_000,
      // The limit's end of a running job is no end.
      endTime: null,
      timeLimitMinutes: 5,
    });
    expect(held).toMatchObject({
      jobId: '16',
      state: 'PENDING',
      reason: 'JobHeldUser',
      submitTime: 1796040869_000,
      startTime: null,
      endTime: null,
    });
  });

  it('parses the targeted text read, where a name cannot forge a record', () => {
    const fields = (id: string, user: string, name: string) => [
      id,
      'PENDING',
      'JobHeldUser',
      user,
      'acct-demo-hf',
      'normal',
      'normal',
      '',
      '1',
      '1',
      '1795692625',
      'N/A',
      'N/A',
      '5:00',
      'N/A',
      '/tmp',
      name,
    ];
    const marks = squeueMarks();
    const record = (f: string[]) => marks.record + f.join(marks.field) + '\n';
    // Found from outside: a name given to sbatch directly that held a newline and a whole line of another job in
    // the old fixed separators, and one in the marks of another read.
    const other = squeueMarks();
    const forged = `x\n8\x1fRUNNING\x1fNone\x1fwangwu\n${other.record}8${other.field}RUNNING`;
    const text =
      record(fields('9', 'wangwu', forged)) +
      record(fields('7', 'demo', 'a\x1fname\nline two')) +
      record(fields('8', 'demo', 'victim'));
    expect(parseSqueueText(text, marks)).toEqual([
      expect.objectContaining({ jobId: '9', user: 'wangwu', name: forged }),
      expect.objectContaining({
        jobId: '7',
        state: 'PENDING',
        reason: 'JobHeldUser',
        timeLimitMinutes: 5,
        submitTime: 1795692625000,
        startTime: null,
        name: 'a\x1fname\nline two',
      }),
      expect.objectContaining({ jobId: '8', user: 'demo', name: 'victim' }),
    ]);
    expect(squeueFormat(marks).startsWith(marks.record)).toBe(true);
    expect(marks.record).not.toBe(other.record);
  });
});

describe('sbatch', () => {
  it('passes each value as one --opt=value argument', () => {
    const args = sbatchArgs({
      account: 'acct-demo-hf',
      partition: 'normal',
      nodes: 1,
      tasks: 2,
      cpusPerTask: 1,
      gpus: 0,
      memoryMb: 0,
      timeLimitMinutes: 10,
      jobName: '--wrap=rm -rf ~',
      workDir: '/public/home/demo',
      script: '#!/bin/bash\n',
    });
    expect(args).toContain('--job-name=--wrap=rm -rf ~');
    expect(args).not.toContain('--wrap=rm -rf ~');
    expect(args.some((a) => a.startsWith('--gpus'))).toBe(false);
  });

  it('classifies the refusals of Slurm 22.05', () => {
    const cases: [string, string][] = [
      [
        'sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified',
        JobCodes.account,
      ],
      [
        'sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)',
        JobCodes.timeLimit,
      ],
      ['sbatch: error: Invalid generic resource (gres) specification', JobCodes.gres],
      [
        'sbatch: error: invalid partition specified: nope\nsbatch: error: Batch job submission failed: Invalid partition name specified',
        JobCodes.partition,
      ],
      [
        'sbatch: error: Batch job submission failed: More processors requested than permitted',
        JobCodes.resources,
      ],
      ['sbatch: error: Batch job submission failed: Invalid qos specification', JobCodes.qos],
      [
        'sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)',
        JobCodes.schedulerDown,
      ],
      ['sbatch: error: This does not look like a batch script.', JobCodes.refused],
    ];
    for (const [stderr, code] of cases) expect(classifyRefusal(stderr).code, stderr).toBe(code);
    expect(classifyRefusal(cases[0]![0]).reason).toBe(
      'Invalid account or account/partition combination specified',
    );
  });
});
