import type { KvStore } from '@hpc/server-kit';

/** Who a fast-transfer client is: its own id (kept in its config folder), its machine's name, its version. */
export interface ClientIdentity {
  id: string;
  label: string;
  version: string;
}
export interface PresentClient extends ClientIdentity {
  /** When it last called the portal (ms). */
  at: number;
}

/** The id of a client from before client ids: all such clients of a user count as one. */
export const LEGACY_CLIENT_ID = 'legacy';
/** A client counts as running this long after its last heartbeat (every 30 s) or relay poll. */
const PRESENCE_TTL_MS = 90_000;
/** How many clients of one user the presence lists (machines of one person: a handful). */
const SLOTS = 8;

/** The identity of a call's body: a client without an id (an older one) is the legacy client. */
export const clientIdentity = (b: { client?: string; label?: string; version: string }): ClientIdentity => ({
  id: b.client || LEGACY_CLIENT_ID,
  label: (b.label ?? '').slice(0, 64),
  version: b.version,
});

/**
 * The user's running clients, one presence record each (`fastrans:presence:<user>:<client>`). The KV store cannot
 * list keys, so a small index per user names them: `SLOTS` keys `fastrans:clients:<user>:<i>`, each holding one
 * client id for the presence's lifetime. A client takes a free slot with `setIfAbsent` and renews its own with
 * `renewIfEquals` at every beat (every poll and heartbeat), so two clients starting at once never overwrite each
 * other's entry (a read-modify-write of one list would lose one until its next beat, and meanwhile the relay could
 * take the other client for the only one); a slot whose client stopped beating expires with its presence.
 */
export function clientPresence(kv: KvStore) {
  const record = (user: string | number, id: string) => `fastrans:presence:${user}:${id}`;
  const slot = (user: string | number, i: number) => `fastrans:clients:${user}:${i}`;
  const slots = (user: string | number) =>
    Promise.all(Array.from({ length: SLOTS }, (_, i) => kv.get(slot(user, i))));

  return {
    /** The client called: it is running, as this identity. */
    async beat(user: string | number, c: ClientIdentity): Promise<void> {
      const rec: Omit<PresentClient, 'id'> = { label: c.label, version: c.version, at: Date.now() };
      await kv.set(record(user, c.id), JSON.stringify(rec), PRESENCE_TTL_MS);
      const held = await slots(user);
      const mine = held.indexOf(c.id);
      if (mine >= 0 && (await kv.renewIfEquals(slot(user, mine), c.id, PRESENCE_TTL_MS))) return;
      for (let i = 0; i < SLOTS; i++)
        if (held[i] === null && (await kv.setIfAbsent(slot(user, i), c.id, PRESENCE_TTL_MS))) return;
      // All slots taken (more machines than SLOTS): the client still polls and is reached when named.
    },

    /** The client logged out: gone at once (not after the 90 s of a crash); the user's other clients stay. */
    async leave(user: string | number, id: string): Promise<void> {
      const held = await slots(user);
      await Promise.all([
        kv.del(record(user, id)),
        ...held.flatMap((h, i) => (h === id ? [kv.delIfEquals(slot(user, i), id)] : [])),
      ]);
    },

    /** The user's running clients, the most recently seen first. */
    async list(user: string | number): Promise<PresentClient[]> {
      // A client beating twice at once may hold two slots: listed once.
      const ids = [...new Set((await slots(user)).filter((id): id is string => id !== null))];
      const raws = await Promise.all(ids.map((id) => kv.get(record(user, id))));
      const live: PresentClient[] = [];
      raws.forEach((raw, i) => {
        if (raw) live.push({ id: ids[i]!, ...(JSON.parse(raw) as Omit<PresentClient, 'id'>) });
      });
      return live.sort((a, b) => b.at - a.at);
    },
  };
}
export type ClientPresence = ReturnType<typeof clientPresence>;
