import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { JOB_SCRIPT_MAX_BYTES, type JobTemplate, type SubmitBody } from '@hpc/contracts';

/** The form's values (the script lives in its editor beside the form). */
export type SubmitValues = Omit<SubmitBody, 'script' | 'scriptPath' | 'qos' | 'output' | 'error'> & {
  qos: string;
  output: string;
  error: string;
};

/** spec §5's form rules that apply to a job: cannot be empty, positive or non-negative integers, at most. */
export const rules = (t: TFunction) => ({
  required: { required: true, message: t('jobs.rules.required') } satisfies Rule,
  positive: (max?: number): Rule[] => [
    { required: true, message: t('jobs.rules.required') },
    { type: 'integer', min: 1, message: t('jobs.rules.positiveInteger') },
    ...(max ? [{ type: 'integer' as const, max, message: t('jobs.rules.max', { max }) }] : []),
  ],
  nonNegative: (max?: number): Rule[] => [
    { required: true, message: t('jobs.rules.required') },
    { type: 'integer', min: 0, message: t('jobs.rules.nonNegativeInteger') },
    ...(max !== undefined ? [{ type: 'integer' as const, max, message: t('jobs.rules.max', { max }) }] : []),
  ],
  /** "Name must start with a letter or Chinese, may contain digits, letters, Chinese, underscores and dashes". */
  name: [
    { required: true, message: t('jobs.rules.required') },
    { pattern: /^[A-Za-z\u4e00-\u9fa5][A-Za-z0-9\u4e00-\u9fa5_-]*$/, message: t('jobs.rules.name') },
    { max: 70, message: t('jobs.rules.max', { max: 70 }) },
  ] satisfies Rule[],
  path: [
    { required: true, message: t('jobs.rules.required') },
    { pattern: /^\//, message: t('jobs.rules.path') },
  ] satisfies Rule[],
});

/** The script's own rules, checked before sending: not empty, at most 1 MiB, a first line that names its interpreter. */
export function scriptProblem(script: string, t: TFunction): string | null {
  if (!script.trim()) return t('jobs.rules.required');
  if (new TextEncoder().encode(script).length > JOB_SCRIPT_MAX_BYTES) return t('jobs.rules.scriptSize');
  if (!script.startsWith('#!')) return t('jobs.rules.scriptShebang');
  return null;
}

/** The default script of a new job. */
export const DEFAULT_SCRIPT =
  '#!/bin/bash\n\necho "Job $SLURM_JOB_ID on $(hostname) as $(id -un)"\nsleep 30\necho done\n';

/** What a template and a submission take of the form as it is: the resources, the job's name and folder. */
const resourcesOf = (v: SubmitValues) => ({
  nodes: v.nodes,
  tasks: v.tasks,
  cpusPerTask: v.cpusPerTask,
  gpus: v.gpus,
  memoryMb: v.memoryMb,
  timeLimitMinutes: v.timeLimitMinutes,
  jobName: v.jobName,
  workDir: v.workDir,
});

/** A template made of the form (its account left out: an account may be disabled by the time it is used). */
export function templateOf(name: string, v: SubmitValues, script: string): JobTemplate {
  return {
    name,
    partition: v.partition,
    qos: v.qos ?? '',
    ...resourcesOf(v),
    script,
    output: v.output ?? '',
    error: v.error ?? '',
  };
}

/** The submission of the form's values: empty optional fields left out. */
export function bodyOf(v: SubmitValues, script: string): SubmitBody {
  return {
    account: v.account,
    partition: v.partition,
    ...(v.qos ? { qos: v.qos } : {}),
    ...resourcesOf(v),
    script,
    ...(v.output ? { output: v.output } : {}),
    ...(v.error ? { error: v.error } : {}),
  };
}
