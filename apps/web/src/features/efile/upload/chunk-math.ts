/**
 * The upload list's speed figure. The chunk geometry itself (counts, ranges, identifiers) is the shared protocol
 * of `@hpc/contracts` (chunk-protocol.ts), which the server checks.
 */

/** Exponentially smoothed speed (spec §9 "speed smoothing 0.1"), as simple-uploader's averageSpeed. */
export function smoothSpeed(previous: number, current: number, smoothing: number): number {
  return previous === 0 ? current : smoothing * current + (1 - smoothing) * previous;
}
