/** The limits of an exponential backoff: the first wait, and the longest. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before try `attempt` + 1 after `attempt` failures in a row (1 = the first failure): `baseMs`, then doubled
 * per failure, never past `maxMs`. One rule for every retry loop of the clients (the fast-transfer engine's ranges
 * and finalize, its relay's long poll), so they back off alike. Pure: the caller keeps the count and the clock.
 */
export function backoffMs(attempt: number, b: Backoff): number {
  // Capped before the power: 2 ** 1100 is Infinity, and a wait is never more than maxMs anyway.
  const doublings = Math.min(Math.max(0, attempt - 1), 52);
  return Math.min(b.maxMs, b.baseMs * 2 ** doublings);
}
