import { JobCodes, type ErrorCode } from '@hpc/contracts';

/**
 * Slurm's refusals of a submission (its texts of 22.05) and the code each becomes: the web translates the code, and
 * shows Slurm's own words beside it. What is not listed is the generic JOB_REFUSED with Slurm's reason.
 */
const KNOWN: [RegExp, ErrorCode][] = [
  [
    /Invalid account|account\/partition combination|User's group not permitted|not permitted to use this partition/i,
    JobCodes.account,
  ],
  [/invalid partition|Invalid partition name/i, JobCodes.partition],
  [/time limit is invalid|exceeds some limit|TimeLimit/i, JobCodes.timeLimit],
  [/generic resource|\bgres\b/i, JobCodes.gres],
  [/Invalid qos/i, JobCodes.qos],
  [
    /More processors requested than permitted|Requested node configuration is not available|Node count specification invalid|Memory required by task is not available|CPU count per node can not be satisfied/i,
    JobCodes.resources,
  ],
  [
    /Unable to contact slurm controller|Socket timed out|Connection refused|Zero Bytes were transmitted|slurm_load_jobs error: Unable/i,
    JobCodes.schedulerDown,
  ],
];

/** Slurm's reason from a command's stderr: the last `error:` line without the command's prefixes. */
export function reasonOf(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const errorLine = [...lines].reverse().find((l) => /error:/i.test(l)) ?? lines[lines.length - 1] ?? '';
  return errorLine
    .replace(/^\S+: error: /, '')
    .replace(/^error: /, '')
    .replace(/^Batch job submission failed: /, '')
    .trim();
}

/** The code for a refusal (stderr of sbatch), with Slurm's reason. */
export function classifyRefusal(stderr: string): { code: ErrorCode; reason: string } {
  const reason = reasonOf(stderr) || 'sbatch failed without a reason';
  const all = stderr.trim() || reason;
  for (const [re, code] of KNOWN) if (re.test(all)) return { code, reason };
  return { code: JobCodes.refused, reason };
}

/** Whether a command's failure means the scheduler is out of reach (not a refusal of this request). */
export const isOutage = (stderr: string): boolean => classifyRefusal(stderr).code === JobCodes.schedulerDown;
