import crypto from 'node:crypto';
import os from 'node:os';
import type { KvStore } from './kv';

/** A lock held in the shared store by one owner, kept alive while the owner works. */
export interface HeldLock {
  /** The owner's random token, the value under the key. */
  readonly token: string;
  /** True once a renewal found the key gone or someone else's (the owner stalled past the time-to-live). */
  readonly lost: boolean;
  /** Stops renewing and deletes the key if it is still ours; never throws (an unreleased lock just expires). */
  release(): Promise<void>;
}

/**
 * Takes `key` with SET NX PX and a random token (tusd's and Redlock's single-node scheme). While held, the lock is
 * renewed every third of `ttlMs`, so a long fsync of a 100 GB upload keeps it, and a process killed with -9 leaves
 * a lock that expires within `ttlMs`. Release and renewal compare the token first: an owner that stalled past the
 * time-to-live cannot free or extend the lock a newer owner holds. Null when someone else holds it.
 */
export async function acquireLock(kv: KvStore, key: string, ttlMs: number): Promise<HeldLock | null> {
  const token = `${os.hostname()}:${process.pid}:${crypto.randomBytes(12).toString('hex')}`;
  if (!(await kv.setIfAbsent(key, token, ttlMs))) return null;
  let lost = false;
  const timer = setInterval(
    () => {
      kv.renewIfEquals(key, token, ttlMs).then(
        (ok) => {
          if (!ok) lost = true;
        },
        // Redis unreachable for a moment: the next renewal tries again; if it stays away the lock expires.
        () => undefined,
      );
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return {
    token,
    get lost() {
      return lost;
    },
    async release() {
      clearInterval(timer);
      await kv.delIfEquals(key, token).catch(() => undefined);
    },
  };
}

/**
 * `acquireLock`, waiting for the holder to let go: looks again every `pollMs` until `waitMs` have passed, then
 * throws `busy()`. For work that must not run twice at once but should not fail because another request is in it
 * (two saves of one file, two first chunks of one upload).
 */
export async function acquireLockWaiting(
  kv: KvStore,
  key: string,
  o: { ttlMs: number; waitMs: number; pollMs?: number; busy: () => Error },
): Promise<HeldLock> {
  const deadline = Date.now() + o.waitMs;
  for (;;) {
    const lock = await acquireLock(kv, key, o.ttlMs);
    if (lock) return lock;
    if (Date.now() > deadline) throw o.busy();
    await new Promise((r) => setTimeout(r, o.pollMs ?? 20));
  }
}

/**
 * Claims the current interval of a periodic job for this process: every instance calls it on its own timer, the
 * first of the cluster to ask within interval number `floor(now / intervalMs)` gets that number, everyone else
 * null. So a sweep runs once per interval for the whole cluster, whatever the phases of the instances' timers, and
 * an instance that dies leaves the next interval to the others (the claim expires after two intervals).
 */
export async function claimInterval(
  kv: KvStore,
  job: string,
  intervalMs: number,
  now = Date.now(),
): Promise<number | null> {
  const slot = Math.floor(now / intervalMs);
  const owner = `${os.hostname()}:${process.pid}`;
  return (await kv.setIfAbsent(`lease:${job}:${slot}`, owner, 2 * intervalMs)) ? slot : null;
}
