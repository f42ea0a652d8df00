import { Limits } from '@hpc/contracts';

/** Key under `efile.validation.` of the first rule a name breaks (spec §5 "Names"), or null when it is fine. */
export type NameProblem = 'blank' | 'tooLong' | 'slash' | 'notModified';

export function nameProblem(name: string, opts: { original?: string } = {}): NameProblem | null {
  if (!name.trim()) return 'blank';
  if (name.length > Limits.nameMaxLength) return 'tooLong';
  if (name.includes('/')) return 'slash';
  if (opts.original !== undefined && name === opts.original) return 'notModified';
  return null;
}
