import { gateTtlAt, type KvStore } from './kv';

/** One count a guessed secret (a password, an extraction code) is throttled by. */
export interface AttemptRule {
  /** Counter key in the KvStore (one per user name, address, share …). */
  key: string;
  /** Attempts allowed within the window; the window starts at the first attempt. */
  max: number;
  windowMs: number;
  /**
   * What a successful attempt does to this count: `refund` (default) takes the attempt back, `clear` starts the
   * count again (a user who logged in is no longer being guessed), `keep` leaves it.
   */
  onSuccess?: 'refund' | 'clear' | 'keep';
  /**
   * Past `max`, no lockout but a growing delay (Nextcloud's brute-force throttler): one attempt is let through per
   * delay, the delay doubling from `baseMs` with each attempt over the limit up to `maxMs`. Used for a count that a
   * stranger can drive (per share): it slows guessing down for everyone but never locks the real user out for the
   * whole window.
   */
  delay?: { baseMs: number; maxMs: number };
}

export interface Attempt {
  /** False: refused before any check; try again after `retryAfterMs`. */
  allowed: boolean;
  retryAfterMs: number;
  /** Call once the secret proved right: applies each rule's `onSuccess`. */
  succeeded(): Promise<void>;
}

const delayAt = (rule: AttemptRule, n: number): number =>
  !rule.delay ? rule.windowMs : gateTtlAt({ upTo: rule.max, ...rule.delay }, n);

/**
 * The one failed-attempt throttle (portal login, efile share codes). It counts first and checks after: every
 * attempt increments its counters atomically (in memory, or in Redis so that every instance sees the same counts)
 * before the secret is looked at, so N parallel requests see the counts 1…N and at most `max` of them get a check.
 * Reading the count and incrementing it after a failed check, as before, let 30 parallel wrong logins make 24–29
 * password checks against a limit of 5.
 *
 * An attempt refused by one rule is taken back from the others: it checked nothing, so it is no guess from that
 * address or user (a recipient waiting out a share's delay does not use up their address's allowance by retrying).
 */
export function createAttemptThrottle(kv: KvStore) {
  async function count(rule: AttemptRule): Promise<{ n: number; gate: boolean }> {
    if (!rule.delay) return { n: await kv.incr(rule.key, rule.windowMs), gate: false };
    // The count, the gate and the gate's lifetime (the delay due after this attempt, from this attempt's own count)
    // in one atomic step: a count read before the step could be stale by the time of the step, under a burst.
    return kv.incrAndGate(rule.key, rule.windowMs, `${rule.key}:gate`, {
      upTo: rule.max,
      baseMs: rule.delay.baseMs,
      maxMs: rule.delay.maxMs,
    });
  }

  return {
    async attempt(rules: AttemptRule[]): Promise<Attempt> {
      const counted = await Promise.all(rules.map(count));
      let retryAfterMs = 0;
      const over = rules.map((rule, i) => {
        const { n, gate } = counted[i]!;
        // Over the limit, a delayed rule lets through the one attempt that found its gate open (the gate was armed
        // by the burst's first attempt, in the same atomic step as its count, so a burst finds it closed).
        if (n <= rule.max || (rule.delay && gate)) return false;
        retryAfterMs = Math.max(retryAfterMs, delayAt(rule, n));
        return true;
      });
      const allowed = !over.some(Boolean);
      if (!allowed) await Promise.all(rules.filter((_, i) => !over[i]).map((r) => kv.decr(r.key)));
      return {
        allowed,
        retryAfterMs,
        async succeeded() {
          await Promise.all(
            rules
              .filter((r) => r.onSuccess !== 'keep')
              .map((r) => (r.onSuccess === 'clear' ? kv.del(r.key) : kv.decr(r.key))),
          );
        },
      };
    },
  };
}

export type AttemptThrottle = ReturnType<typeof createAttemptThrottle>;
