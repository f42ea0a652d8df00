import { Limits, UNSHOWABLE } from '@hpc/contracts';

/** Key under `efile.validation.` of the first rule a name breaks (spec §5 "Names"), or null when it is fine. */
export type NameProblem = 'empty' | 'blank' | 'tooLong' | 'slash' | 'unshowable' | 'notModified';

export function nameProblem(name: string, opts: { original?: string } = {}): NameProblem | null {
  if (name === '') return 'empty';
  if (!name.trim()) return 'blank';
  if (name.length > Limits.nameMaxLength) return 'tooLong';
  if (name.includes('/')) return 'slash';
  // What the server refuses too (1027): controls, and direction marks that make one name read as another.
  if (UNSHOWABLE.test(name)) return 'unshowable';
  if (opts.original !== undefined && name === opts.original) return 'notModified';
  return null;
}
