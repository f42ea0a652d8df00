import type { KvStore } from '@hpc/server-kit';

/** How long an instance's record of a session lives without a refresh (an instance that died loses its count). */
export const OPEN_SESSION_TTL_MS = 90_000;

/**
 * The open shells of each user on this cluster, over every instance of the shell service (issue 26 §3: "beyond a
 * configurable number of sessions per user"): one KV map per user, a field per session whose value is the time its
 * record ends. In memory for one instance, in Redis when the service is scaled out, so the limit is the user's, not
 * the instance's. Each instance refreshes the records of its live sessions; a crashed instance's shells died with it
 * and their records end within `OPEN_SESSION_TTL_MS`.
 *
 * A place is taken before it is counted (`reserve`): two starts at once on two instances both see both and, over
 * the limit, both give theirs back. Under that exact race a user may be refused one session too many, never allowed
 * one more than the limit.
 */
export function openSessions(kv: KvStore, clusterId: string, now: () => number = Date.now) {
  const key = (sub: string) => `eshell:open:${clusterId}:${sub}`;
  const live = async (sub: string) => {
    const all = await kv.mapGetAll(key(sub));
    const t = now();
    return Object.entries(all).filter(([, until]) => Number(until) > t);
  };
  const mark = (sub: string, id: string) =>
    kv.mapSet(key(sub), id, String(now() + OPEN_SESSION_TTL_MS), OPEN_SESSION_TTL_MS);
  return {
    /** How many shells the user has open on this cluster (starting ones included). */
    async count(sub: string): Promise<number> {
      return (await live(sub)).length;
    },
    /** Takes a place for session `id`; false (and nothing taken) when that passes `max`. */
    async reserve(sub: string, id: string, max: number): Promise<boolean> {
      await mark(sub, id);
      if ((await live(sub)).length <= max) return true;
      await kv.mapDelete(key(sub), id);
      return false;
    },
    release: (sub: string, id: string) => kv.mapDelete(key(sub), id),
    /** Keeps the records of this instance's live sessions. */
    async refresh(sessions: { sub: string; id: string }[]): Promise<void> {
      await Promise.all(sessions.map((s) => mark(s.sub, s.id)));
    },
  };
}
export type OpenSessions = ReturnType<typeof openSessions>;
