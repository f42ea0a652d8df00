import type { KvStore } from '@hpc/server-kit';
import { CommonCodes, FastransCodes, FastransRefusal, PortalCodes } from '@hpc/contracts';
import type { ClientIdentity, ClientPresence } from './client-presence';
import { PortalText } from '../../messages';

/** An answer of the local protocol (docs/FASTRANS.md): the relay carries it unchanged. */
export interface RelayAnswer {
  id?: number;
  code: string;
  msg: string;
  /** The Chinese of the client's or the relay's own refusal (the relay route answers the page's language). */
  zh?: string;
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
 * One queue per client, not per user: a user with clients on two machines must have "upload /home/me/data" run by
 * the machine the page means. Keys, per portal user and client id (`client-presence.ts`): `seq` (a counter
 * numbering the requests), `q:<n>` (a request), `a:<n>` (its answer), `polling` (it polls). A request is claimed by
 * deleting it only while it still holds what was read (`delIfEquals`): of two polls at once (a new poll while the
 * old one still waits on another portal instance) only one runs it.
 */
export function relayService(kv: KvStore, presence: ClientPresence) {
  const key = (userId: number | string, client: string, k: string) =>
    `fastrans:relay:${userId}:${client}:${k}`;
  const polling = async (userId: number | string, client: string) =>
    (await kv.get(key(userId, client, 'polling'))) !== null;
  const notRunning = (): RelayAnswer => ({
    code: PortalCodes.clientNotInstalled,
    msg: PortalText.clientNotRunning.en,
    zh: PortalText.clientNotRunning.zh,
    data: null,
  });

  /**
   * The client a page's action goes to: the one it names, else the only one polling. Several polling and none
   * named is refused (1004 with the reason `fastransChooseClient`): guessing could run the action on the wrong
   * machine.
   */
  async function target(userId: number, client: string | undefined): Promise<string | RelayAnswer> {
    if (client) return (await polling(userId, client)) ? client : notRunning();
    const ids = (await presence.list(userId)).map((c) => c.id);
    const live = (await Promise.all(ids.map(async (id) => ((await polling(userId, id)) ? id : null)))).filter(
      (id): id is string => id !== null,
    );
    if (live.length === 0) return notRunning();
    if (live.length > 1)
      return {
        code: CommonCodes.invalidInput,
        msg: PortalText.chooseClient.en,
        zh: PortalText.chooseClient.zh,
        data: { reason: FastransRefusal.chooseClient, clients: live },
      };
    return live[0]!;
  }

  return {
    /** Whether this client of the user polls now (the presence list shows it). */
    polling,

    /**
     * The page's side: queues one action for the user's client `client` (or the only one polling) and waits for
     * its answer. No such logged-in client polling (not running, logged out, or one without the relay) answers
     * 631013 at once; one that does not answer in time 30001.
     */
    async send(
      userId: number,
      client: string | undefined,
      m: Record<string, unknown>,
      waitMs = 25_000,
    ): Promise<RelayAnswer> {
      const to = await target(userId, client);
      if (typeof to !== 'string') return to;
      const n = await kv.incr(key(userId, to, 'seq'), SEQ_TTL_MS);
      await kv.set(key(userId, to, `q:${n}`), JSON.stringify(m), REQUEST_TTL_MS);
      const deadline = Date.now() + waitMs;
      while (Date.now() < deadline) {
        const raw = await kv.get(key(userId, to, `a:${n}`));
        if (raw) {
          await kv.del(key(userId, to, `a:${n}`));
          return JSON.parse(raw) as RelayAnswer;
        }
        await sleep(TICK_MS);
      }
      await kv.del(key(userId, to, `q:${n}`));
      const { en, zh } = PortalText.clientSilent;
      return { code: FastransCodes.clientClosed, msg: en, zh, data: null };
    },

    /**
     * The client's long poll: its requests numbered after `after`, waiting up to `waitMs` for one. `seq` in the
     * answer is the client's next `after` (a counter that expired and started again is taken from its start).
     * Polling is the client's sign of life too: the page tells "blocked by the browser" from "not running".
     */
    async poll(
      userId: string,
      client: ClientIdentity,
      after: number,
      waitMs = 20_000,
    ): Promise<{ seq: number; requests: RelayRequest[] }> {
      const k = (name: string) => key(userId, client.id, name);
      const deadline = Date.now() + waitMs;
      await kv.set(k('polling'), '1', POLLING_TTL_MS);
      await presence.beat(userId, client);
      for (;;) {
        // Logged out meanwhile (`gone`): a poll that was waiting ends without anything the page asks afterwards.
        if (!(await kv.get(k('polling')))) return { seq: after, requests: [] };
        const seq = Number((await kv.get(k('seq'))) ?? 0);
        const from = seq < after ? 0 : after;
        if (seq > from) {
          const requests: RelayRequest[] = [];
          for (let n = Math.max(from + 1, seq - 50); n <= seq; n++) {
            const raw = await kv.get(k(`q:${n}`));
            // Taken only if this poll is the one that removed it: another poll may have read it too.
            if (!raw || !(await kv.delIfEquals(k(`q:${n}`), raw))) continue;
            requests.push({ n, m: JSON.parse(raw) as Record<string, unknown> });
          }
          if (requests.length > 0 || Date.now() >= deadline) return { seq, requests };
          after = seq;
        }
        if (Date.now() >= deadline) return { seq, requests: [] };
        await sleep(TICK_MS);
      }
    },

    async answer(userId: string, client: string, n: number, a: RelayAnswer): Promise<void> {
      await kv.set(key(userId, client, `a:${n}`), JSON.stringify(a), ANSWER_TTL_MS);
    },

    /** This client logged out: nothing more is queued for it, and its waiting poll ends; the others go on. */
    async gone(userId: string, client: string): Promise<void> {
      await kv.del(key(userId, client, 'polling'));
    },
  };
}
export type RelayService = ReturnType<typeof relayService>;
