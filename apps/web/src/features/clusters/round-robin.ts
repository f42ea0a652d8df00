/**
 * The numeric hash of a user id that spreads users over a cluster's service instances (spec §4: round-robin by user
 * id). A numeric id is used as it is, so operators can predict which instance a user lands on; any other id gets a
 * 32-bit FNV-1a hash of its text, so the choice is stable across sessions and browsers.
 */
export function userIdHash(userId: string | number): number {
  const text = String(userId).trim();
  if (/^\d{1,15}$/.test(text)) return Number(text);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The indexes of `n` candidates in the order to try them for `userId`: start at hash mod n, then wrap around. */
export function roundRobinOrder(userId: string | number, n: number): number[] {
  if (n <= 0) return [];
  const start = userIdHash(userId) % n;
  return Array.from({ length: n }, (_, i) => (start + i) % n);
}
