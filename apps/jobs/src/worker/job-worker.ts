import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CommonCodes,
  FileCodes,
  JOB_SCRIPT_MAX_BYTES,
  JobCodes,
  type JobOutput,
  type JobTemplate,
  type JobTemplateEntry,
  type JobTemplateSummary,
  type SubmitBody,
} from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { CallScope, PathResolver } from '@hpc/cluster-kit';
import type { HistoryRequest, JobSignal, QueueJob, SchedulerUserCalls } from '../scheduler/scheduler';
import { JobsText } from '../messages';
import { readOutput } from './job-output';
import { createTemplateStore } from './job-templates';
import { readSmallFile } from './small-file';

/** Who a worker call runs as, and the roots that confine its paths (from the verified token). */
export interface JobScope extends CallScope {
  cun: string;
  home: string;
  roots: string[];
}

/**
 * The calls that act for a user, each run inside that user's worker as that user (unix mode): the scheduler sees
 * the user submit, cancel and read, and the kernel checks every file the call touches. The call table in
 * job-calls.ts declares them for the kit's wire.
 */
export interface JobWorker {
  submit(scope: JobScope, body: SubmitBody): Promise<{ jobId: string }>;
  signal(
    scope: JobScope,
    action: JobSignal,
    ids: string[],
  ): Promise<{ jobId: string; ok: boolean; reason: string }[]>;
  history(scope: JobScope, q: Omit<HistoryRequest, 'user'>): Promise<QueueJob[]>;
  detail(scope: JobScope, jobId: string): Promise<QueueJob | null>;
  output(scope: JobScope, file: string, offset: number | null, maxBytes: number): Promise<JobOutput>;
  templates(scope: JobScope): Promise<JobTemplateSummary[]>;
  template(scope: JobScope, name: string): Promise<JobTemplateEntry>;
  saveTemplate(scope: JobScope, t: JobTemplate): Promise<void>;
  deleteTemplate(scope: JobScope, name: string): Promise<void>;
}

// eslint-disable-next-line no-control-regex -- control characters other than tab, newline, CR and form feed
const NOT_TEXT = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;

/** The rules of a script's text (issue 22 §2): at most 1 MiB, and text. */
export function checkScript(script: string): void {
  if (Buffer.byteLength(script, 'utf8') > JOB_SCRIPT_MAX_BYTES)
    throw new AppError(
      CommonCodes.tooLarge,
      JobsText.scriptTooLarge(String(JOB_SCRIPT_MAX_BYTES / 1024 / 1024)),
    );
  if (NOT_TEXT.test(script) || script.includes('\ufffd')) throw new AppError(JobCodes.scriptNotText);
}

/**
 * The environment a job starts with: the user's own basics, never the service's (it may hold secrets, and sbatch
 * passes its caller's environment into the job).
 */
function userEnv(slurmEnv: Record<string, string>): Record<string, string> {
  const me = os.userInfo();
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: me.homedir,
    USER: me.username,
    LOGNAME: me.username,
    SHELL: me.shell ?? '/bin/bash',
    LANG: 'C.UTF-8',
    ...slurmEnv,
  };
}

export interface JobWorkerOptions {
  resolver: PathResolver;
  slurm: SchedulerUserCalls;
  slurmEnv: Record<string, string>;
}

/** The worker side of the job calls (what runs as the user). */
export function createJobWorker(o: JobWorkerOptions): JobWorker {
  const { resolver } = o;
  const templates = createTemplateStore(resolver);

  /** A directory inside the user's roots, as a host path. */
  async function dir(scope: JobScope, clusterPath: string): Promise<string> {
    const r = await resolver.resolve(scope, clusterPath, { mustExist: true });
    if (!r.stat?.isDirectory()) throw new AppError(FileCodes.notAFolder, JobsText.notAFolder(clusterPath));
    return r.host;
  }

  /** An output file: relative to the working directory or absolute, its folder inside the user's roots. */
  async function outputFile(
    scope: JobScope,
    workDir: string,
    value: string | undefined,
  ): Promise<string | undefined> {
    if (!value) return undefined;
    const full = value.startsWith('/') ? value : path.posix.join(workDir, value);
    // Slurm expands its patterns in the whole path after this check: a folder of `%x` with a job named `..` was
    // checked as the literal folder `%x` and written as `..` (found from outside). In the name they stay harmless:
    // no expansion holds a `/`, and the names `.` and `..` are refused.
    if (path.posix.dirname(full).includes('%'))
      throw new AppError(CommonCodes.invalidInput, JobsText.patternInFolder(value));
    const folder = await dir(scope, path.posix.dirname(full));
    return path.join(folder, path.posix.basename(full));
  }

  return {
    async submit(scope, body) {
      const workDir = await dir(scope, body.workDir);
      // sbatch starts in it: a folder the user may look at but not enter failed the spawn, answered as Slurm's
      // refusal with Node's own words (found from outside).
      await fs.access(workDir, constants.X_OK).catch(() => {
        throw new AppError(FileCodes.permissionDenied, JobsText.cannotEnter(body.workDir));
      });
      let script = body.script;
      if (body.scriptPath) {
        const r = await resolver.resolve(scope, body.scriptPath, { mustExist: true });
        const read = await readSmallFile(r.host, JOB_SCRIPT_MAX_BYTES);
        if (read === 'not-a-file') throw new AppError(FileCodes.notFound, JobsText.notAFile(body.scriptPath));
        if (read === 'too-large') throw new AppError(CommonCodes.tooLarge);
        script = read.text;
      }
      if (script === undefined) throw new AppError(CommonCodes.incompleteParams, JobsText.scriptRequired);
      checkScript(script);
      return o.slurm.submit(
        {
          account: body.account,
          partition: body.partition,
          qos: body.qos,
          nodes: body.nodes,
          tasks: body.tasks,
          cpusPerTask: body.cpusPerTask,
          gpus: body.gpus,
          memoryMb: body.memoryMb,
          timeLimitMinutes: body.timeLimitMinutes,
          jobName: body.jobName,
          workDir,
          output: await outputFile(scope, body.workDir, body.output),
          error: await outputFile(scope, body.workDir, body.error),
          script,
        },
        userEnv(o.slurmEnv),
      );
    },
    signal: (_scope, action, ids) => o.slurm.signal(action, ids),
    history: (scope, q) => o.slurm.history({ ...q, user: scope.cun }),
    detail: (_scope, jobId) => o.slurm.detail(jobId),
    output: (scope, file, offset, maxBytes) => readOutput(resolver, scope, file, offset, maxBytes),
    templates: (scope) => templates.list(scope),
    template: (scope, name) => templates.get(scope, name),
    saveTemplate: (scope, t) => templates.save(scope, t),
    deleteTemplate: (scope, name) => templates.remove(scope, name),
  };
}
