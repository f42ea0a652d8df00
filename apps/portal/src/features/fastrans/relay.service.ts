import type { KvStore } from '@hpc/server-kit';
import { FastransCodes, PortalCodes } from '@hpc/contracts';

/** An answer of the local protocol (docs/FASTRANS.md): the relay carries it unchanged. */
export interface RelayAnswer {
  id?: number;
  code: string;
  msg: string;
  data: unknown;
}
export interface RelayRequest {
  n: number;
  m: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How often a waiting call looks at the KV store: short enough for a click to feel direct, cheap for Redis. */
const TICK_MS = 150;
/** A request nobody picked up within this time is dropped (the page has given up on it by then). */
const REQUEST_TTL_MS = 30_000;
const ANSWER_TTL_MS = 60_000;
const SEQ_TTL_MS = 24 * 3600_000;
/**
 * How long a poll counts as "a client is listening": the long poll's 20 s, the client's immediate next poll and its
 * longest backoff (8 s), with room to spare. Longer would queue requests for a client that has gone.
 */
const POLLING_TTL_MS = 35_000;

/**
 * The second path between page and client (issue 11 §3), for browsers that block the page's connection to
 * 127.0.0.1: the client keeps an outbound long poll to the portal, and the page's actions travel through the KV
 * store. Everything is in the KV store, so the page and the client may reach different portal instances.
 *
 * Bound to a logged-in client of the page's user: the page's user comes from its session, the client's from its web
 * token (the day token it logged in with names the user), and requests are queued only while such a client polls
 * (`polling`, set by each poll, removed at the client's logout), not merely while one sends heartbeats.
 *
 * Keys, per portal user: `seq` (a counter numbering the requests), `q:<n>` (a request), `a:<n>` (its answer),
 * `polling` (a logged-in client polls).
 */
export function relayService(kv: KvStore) {
  const key = (userId: number | string, k: string) => `fastrans:relay:${userId}:${k}`;

  return {
    /**
     * The page's side: queues one action for the user's client and waits for its answer. No logged-in client
     * polling (not running, logged out, or one without the relay) answers 631013 at once; one that does not answer
     * in time 30001.
     */
    async send(userId: number, m: Record<string, unknown>, waitMs = 25_000): Promise<RelayAnswer> {
      if (!(await kv.get(key(userId, 'polling'))))
        return {
          code: PortalCodes.clientNotInstalled,
          msg: 'The fast-transfer client is not running',
          data: null,
        };
      const n = await kv.incr(key(userId, 'seq'), SEQ_TTL_MS);
      await kv.set(key(userId, `q:${n}`), JSON.stringify(m), REQUEST_TTL_MS);
      const deadline = Date.now() + waitMs;
      while (Date.now() < deadline) {
        const raw = await kv.get(key(userId, `a:${n}`));
        if (raw) {
          await kv.del(key(userId, `a:${n}`));
          return JSON.parse(raw) as RelayAnswer;
        }
        await sleep(TICK_MS);
      }
      await kv.del(key(userId, `q:${n}`));
      return { code: FastransCodes.clientClosed, msg: 'The fast-transfer client did not answer', data: null };
    },

    /**
     * The client's long poll: the requests numbered after `after`, waiting up to `waitMs` for one. `seq` in the
     * answer is the client's next `after` (a counter that expired and started again is taken from its start).
     */
    async poll(
      userId: string,
      after: number,
      waitMs = 20_000,
    ): Promise<{ seq: number; requests: RelayRequest[] }> {
      const deadline = Date.now() + waitMs;
      await kv.set(key(userId, 'polling'), '1', POLLING_TTL_MS);
      for (;;) {
        // Logged out meanwhile (`gone`): a poll that was waiting ends without anything the page asks afterwards.
        if (!(await kv.get(key(userId, 'polling')))) return { seq: after, requests: [] };
        const seq = Number((await kv.get(key(userId, 'seq'))) ?? 0);
        const from = seq < after ? 0 : after;
        if (seq > from) {
          const requests: RelayRequest[] = [];
          for (let n = Math.max(from + 1, seq - 50); n <= seq; n++) {
            const raw = await kv.get(key(userId, `q:${n}`));
            if (!raw) continue;
            await kv.del(key(userId, `q:${n}`));
            requests.push({ n, m: JSON.parse(raw) as Record<string, unknown> });
          }
          if (requests.length > 0 || Date.now() >= deadline) return { seq, requests };
          after = seq;
        }
        if (Date.now() >= deadline) return { seq, requests: [] };
        await sleep(TICK_MS);
      }
    },

    async answer(userId: string, n: number, a: RelayAnswer): Promise<void> {
      await kv.set(key(userId, `a:${n}`), JSON.stringify(a), ANSWER_TTL_MS);
    },

    /** The user's client logged out: nothing more is queued for it, and its waiting poll ends. */
    async gone(userId: string): Promise<void> {
      await kv.del(key(userId, 'polling'));
    },
  };
}
export type RelayService = ReturnType<typeof relayService>;
