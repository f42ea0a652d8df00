import { acquireLock } from '@hpc/server-kit';
import type { HomeUsage } from '@hpc/contracts';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import type { HomeUsageCount } from '../../fs/home-usage';

/** A count is taken again when older than this (on the next look, in the background). */
const FRESH_MS = 10 * 60_000;
/** Kept for a day: a dashboard opened tomorrow shows yesterday's count at once while a new one runs. */
const KEEP_MS = 24 * 3600_000;
/** How long one count may hold its lock (a huge home stops at its entry limit well before). */
const COUNT_LOCK_MS = 15 * 60_000;

interface Cached extends HomeUsageCount {
  countedAt: number;
}

/**
 * The Dashboard's "my storage" and "recent files" (issue 22 §4): the home is counted as the user (its worker in
 * unix mode), in the background, one count at a time per user across instances (a lock in the KV store), and the
 * answer is always the cached count: a page never waits for a walk of a home with a million files.
 */
export function usageService(deps: EfileDeps) {
  const key = (cun: string) => `usage:${cun}`;

  async function count(user: EfileUser): Promise<void> {
    const lock = await acquireLock(deps.kv, `usage-count:${user.cun}`, COUNT_LOCK_MS);
    if (!lock) return; // someone counts already
    try {
      const counted = await deps.userfs.homeUsage(user, user.home);
      await deps.kv.set(
        key(user.cun),
        JSON.stringify({ ...counted, countedAt: deps.now() } satisfies Cached),
        KEEP_MS,
      );
    } finally {
      await lock.release();
    }
  }

  return {
    async usage(user: EfileUser, log: (e: unknown) => void): Promise<HomeUsage> {
      const raw = await deps.kv.get(key(user.cun));
      const cached = raw ? (JSON.parse(raw) as Cached) : null;
      const stale = !cached || deps.now() - cached.countedAt > FRESH_MS;
      const running = (await deps.kv.get(`usage-count:${user.cun}`)) !== null;
      if (stale && !running) void count(user).catch(log);
      return {
        home: user.home,
        usedBytes: cached?.usedBytes ?? 0,
        files: cached?.files ?? 0,
        partial: cached?.partial ?? false,
        quotaBytes: null,
        fsTotalBytes: cached?.fsTotalBytes ?? 0,
        fsFreeBytes: cached?.fsFreeBytes ?? 0,
        countedAt: cached?.countedAt ?? null,
        counting: running || stale,
        recent: cached?.recent ?? [],
      };
    },
  };
}
