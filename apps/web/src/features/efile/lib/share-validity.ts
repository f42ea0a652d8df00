/** Key under `efile.share.validity.` of the problem with a typed validity (spec §5 "Share validity"), or null. */
export type ValidityProblem = 'empty' | 'incorrect' | 'tooLong';

export function validityProblem(input: string, maxDays: number): ValidityProblem | null {
  const v = input.trim();
  if (!v) return 'empty';
  if (!/^[1-9]\d*$/.test(v)) return 'incorrect';
  if (Number(v) > maxDays) return 'tooLong';
  return null;
}
