import type { ClusterSummary } from '@hpc/contracts';

/** The word for "disabled" in centre names (spec §3: such clusters sort last). */
const DISABLED_WORD = /停用|disabled/i;

/** Whether a centre's name already says it is disabled (then a "disabled" tag beside it would repeat it). */
export const nameSaysDisabled = (name: string): boolean => DISABLED_WORD.test(name);

export const isDisabledCluster = (
  c: Pick<ClusterSummary, 'centerName' | 'disabled'> & { centerNameEn?: string },
) => c.disabled || DISABLED_WORD.test(c.centerName) || DISABLED_WORD.test(c.centerNameEn ?? '');

/** Disabled centres after the others; otherwise the portal's order is kept (it is meaningful to the operators). */
export function sortClusters<T extends Pick<ClusterSummary, 'centerName' | 'disabled'>>(
  clusters: readonly T[],
): T[] {
  return clusters
    .map((c, i) => ({ c, i, off: isDisabledCluster(c) ? 1 : 0 }))
    .sort((a, b) => a.off - b.off || a.i - b.i)
    .map((x) => x.c);
}

/**
 * The user's account on this centre is deactivated (spec §1, accountDetail.status "Disable"): efile refuses every
 * call there with 1007 until the sales manager reactivates it, so pages offer nothing that would only fail.
 */
export const accountDeactivated = (c: { accountDetail?: { status: string } | null } | undefined): boolean =>
  c?.accountDetail?.status === 'Disable';
