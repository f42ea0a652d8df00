import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CommonCodes, FASTRANS_TOKEN_USE, PortalCodes } from '@hpc/contracts';
import { AppError } from '../app-error';
import { ServerKitText } from '../messages';
import { createKv, type KvStore } from '../kv';
import { createAttemptThrottle } from '../throttle';
import { CLUSTER_TOKEN_MAX_TTL_S, DAY_TOKEN_MAX_TTL_S } from './cluster-token';

/**
 * The prefix of the revocation store's keys, the same in the portal and in every cluster service whatever prefix
 * their own KV store has (`portal:`, `efile:<cluster>:`): they must all read the keys the portal writes.
 */
export const REVOCATION_KV_PREFIX = 'hpc:identity:';

/** Slack for clocks and the verifier's 30 s tolerance: a mark outlives every token it can concern. */
const SLACK_MS = 5 * 60_000;
/** A session's cluster tokens live at most 12 h: its mark is kept that long. */
const SESSION_MARK_MS = CLUSTER_TOKEN_MAX_TTL_S * 1000 + SLACK_MS;
/** Day tokens and Linux commands live at most a day: a user's or a credential's mark is kept that long. */
const DAY_MARK_MS = DAY_TOKEN_MAX_TTL_S * 1000 + SLACK_MS;

/**
 * Day tokens and Linux commands one user may be issued in 24 hours (from the first). Each is a field of the user's
 * record for a day and a line of the user centre's list: without a bound, a script asking for them in a loop grew
 * the shared store (memory in the all-in-one, Redis when scaled out) without end (found from outside, 2026-12-01).
 * A page asks for one per fast-transfer login or Linux command: thousands a day is no person's use.
 */
export const MAX_ISSUED_PER_DAY = 2000;

/** What a user can see and revoke of what was issued for them today (the user centre). */
export type IssuedKind = 'fastrans' | 'linux';
export interface IssuedCredential {
  /** SHA-256 (hex) of the secret: never the secret itself. */
  id: string;
  kind: IssuedKind;
  clusterId: string;
  issuedAt: number;
  expiresAt: number;
  /** What it is for: the fast-transfer folder, or a Linux command's direction and paths. */
  detail: string;
  /**
   * The page session that asked for it (its public id, the cluster tokens' `sid`). Ending sessions for safety (a
   * password change, "sign out everywhere else", one session ended from the list, an operator's reset) revokes
   * what they asked for too: a stolen session's day token outlived the session (found from outside, 2026-12-01).
   * A plain logout does not: a transfer the user started goes on.
   */
  sid?: string;
}

/** Why a token is refused: its session ended, its user was disabled, or it was revoked itself. */
export type Revoked = 'session' | 'user' | 'credential';

/** What of a presented credential the check needs. */
export interface PresentedToken {
  sub: string;
  /** The session the token was issued for (cluster tokens signed for a page; `sid` claim). */
  sid?: string;
  /** Issue time, seconds (a user disabled after it refuses the token). */
  iat?: number;
  /** The credential's own id (day tokens, Linux commands): `credentialId(secret)`. */
  credential?: string;
}

/** The id under which a day token or a Linux command is recorded and revoked: the SHA-256 of the secret. */
export const credentialId = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');

/**
 * The revocations the portal records and every cluster service checks on every request (issue 25 §1.3): a session
 * ended (logout, password change, "sign out", an operator's reset, expiry), a user disabled, a day token or a Linux
 * command revoked. Kept in the KV store: in memory in the all-in-one process (portal and efile share the one
 * instance), in Redis when scaled out, under `REVOCATION_KV_PREFIX`. Each mark lives as long as the longest
 * token it can concern, so the store stays small. Also the record of the day tokens and Linux commands issued to a
 * user, which the user centre lists.
 */
export function createRevocationStore(kv: KvStore) {
  const issuedKey = (sub: string) => `issued:${sub}`;
  // Counted before it is recorded (atomically, in Redis when scaled out): a parallel burst gets no more than the max.
  const allowance = createAttemptThrottle(kv);
  /** A credential refused from now on, and gone from its user's record. */
  const markRevoked = async (sub: string, id: string) => {
    await kv.set(`cred:${id}`, '1', DAY_MARK_MS);
    await kv.mapDelete(issuedKey(sub), id);
  };
  const store = {
    /** Marks sessions ended (their `sid`s): every token issued for them is refused from now on. */
    async endSessions(sids: readonly string[]): Promise<void> {
      await Promise.all(sids.map((sid) => kv.set(`sid:${sid}`, '1', SESSION_MARK_MS)));
    },

    /** A user disabled at `atMs`: every token of theirs issued until then is refused. */
    async disableUser(sub: string, atMs: number): Promise<void> {
      await kv.set(`user:${sub}`, String(atMs), DAY_MARK_MS);
    },

    /** Revokes one day token or Linux command of `sub` and drops it from their record. */
    async revokeCredential(sub: string, id: string): Promise<boolean> {
      const known = (await kv.mapGetAll(issuedKey(sub)))[id] !== undefined;
      if (!known) return false;
      await markRevoked(sub, id);
      return true;
    },

    /**
     * Revokes what the sessions `sids` asked for of `sub`'s day tokens and Linux commands (`sids` null: all of
     * them); returns how many.
     */
    async revokeIssuedBy(sub: string, sids: readonly string[] | null): Promise<number> {
      const of = sids && new Set(sids);
      const hit = (await store.issued(sub)).filter((c) => !of || (c.sid !== undefined && of.has(c.sid)));
      // The record was read once above: no look-up per credential as revokeCredential's.
      await Promise.all(hit.map((c) => markRevoked(sub, c.id)));
      return hit.length;
    },

    /**
     * Records a day token or Linux command issued to `sub` (what the user centre lists). Past `MAX_ISSUED_PER_DAY`
     * in 24 hours it records nothing and refuses (`429`): the caller hands the credential out only once recorded.
     */
    async recordIssued(sub: string, cred: IssuedCredential): Promise<void> {
      const day = DAY_TOKEN_MAX_TTL_S * 1000;
      const room = await allowance.attempt([
        { key: `issued-n:${sub}`, max: MAX_ISSUED_PER_DAY, windowMs: day, onSuccess: 'keep' },
      ]);
      if (!room.allowed)
        throw new AppError(PortalCodes.tooManyRequests, ServerKitText.tooManyIssued(MAX_ISSUED_PER_DAY), {
          data: { retryAfterSeconds: Math.ceil(room.retryAfterMs / 1000) },
        });
      await kv.mapSet(issuedKey(sub), cred.id, JSON.stringify(cred), DAY_MARK_MS);
    },

    /** What is recorded as issued to `sub` and still valid, the newest first. */
    async issued(sub: string, now = Date.now()): Promise<IssuedCredential[]> {
      const all = Object.entries(await kv.mapGetAll(issuedKey(sub)));
      const live: IssuedCredential[] = [];
      for (const [id, raw] of all) {
        const cred = JSON.parse(raw) as IssuedCredential;
        if (cred.expiresAt > now) live.push(cred);
        else await kv.mapDelete(issuedKey(sub), id);
      }
      return live.sort((a, b) => b.issuedAt - a.issuedAt);
    },

    /** Why the token is refused, or null: one round trip to the store, on every request. */
    async revoked(t: PresentedToken): Promise<Revoked | null> {
      const [user, sid, cred] = await kv.getMany([
        `user:${t.sub}`,
        t.sid ? `sid:${t.sid}` : '',
        t.credential ? `cred:${t.credential}` : '',
      ]);
      if (t.sid && sid) return 'session';
      if (t.credential && cred) return 'credential';
      // A token issued in the second of the disabling or before (iat is whole seconds).
      if (user && (t.iat === undefined || t.iat * 1000 <= Number(user))) return 'user';
      return null;
    },
  };
  return store;
}

export type RevocationStore = ReturnType<typeof createRevocationStore>;

/**
 * The store on its own KV connection under the shared prefix: Redis when `redisUrl` is set, else memory (one
 * process: the all-in-one hands the portal's store to its efile instances instead of opening another). In memory,
 * `journal` (a file) keeps it over a restart: without it a restart brought back every token of an ended session, a
 * disabled user or a revoked day token for the rest of its hours (found from outside, 2026-12-01).
 */
export function openRevocationStore(
  redisUrl?: string,
  journal?: string,
): { store: RevocationStore; close(): Promise<void> } {
  const memory = !redisUrl;
  let kv = createKv(redisUrl || undefined, REVOCATION_KV_PREFIX);
  if (memory && journal) kv = journaled(kv, journal);
  return { store: createRevocationStore(kv), close: () => kv.close() };
}

type JournalLine =
  | { o: 'set'; k: string; v: string; exp: number }
  | { o: 'mapSet'; k: string; f: string; v: string; exp: number }
  | { o: 'mapDelete'; k: string; f: string };

/**
 * Takes the journal's lock (`<file>.lock`, holding this process's pid) when no other live process holds it: the one
 * that holds it may rewrite the journal, the others only append. Without it, the admin CLI (which opens the portal's
 * deps too) rewrote the file while the running portal appended: a logout written between the CLI's read and its
 * rename was lost from the file. A lock left by a process that is gone is taken over.
 */
function takeJournalLock(file: string): (() => void) | null {
  const lock = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.rmSync(lock, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) return null;
      fs.rmSync(lock, { force: true });
    }
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A memory KV whose writes of the revocation store (`set`, `mapSet`, `mapDelete`) are also appended to `file` (JSON
 * lines, 0600: it names sessions and users) and played back into it at start, each with what is left of its time;
 * the process that holds the journal's lock then rewrites it with what is still alive (`takeJournalLock`).
 * Revocations are rare (a logout, a password change), so each is written at once and synchronously: acknowledged
 * means on disk, one line in one append.
 */
function journaled(kv: KvStore, file: string): KvStore {
  const now = Date.now();
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // The journal's end state: each key's value, each map's fields (a map lives as long as its last mapSet said).
  const values = new Map<string, { v: string; exp: number }>();
  const maps = new Map<string, { exp: number; fields: Map<string, string> }>();
  for (const raw of text.split('\n')) {
    let l: JournalLine;
    try {
      l = JSON.parse(raw) as JournalLine;
    } catch {
      continue; // an empty or torn last line
    }
    if (l.o === 'set') values.set(l.k, { v: l.v, exp: l.exp });
    else if (l.o === 'mapSet') {
      const m = maps.get(l.k) ?? { exp: l.exp, fields: new Map<string, string>() };
      m.exp = l.exp;
      m.fields.set(l.f, l.v);
      maps.set(l.k, m);
    } else maps.get(l.k)?.fields.delete(l.f);
  }
  type Live = Exclude<JournalLine, { o: 'mapDelete' }>;
  const live: Live[] = [
    ...[...values].flatMap(([k, { v, exp }]) => (exp > now ? [{ o: 'set' as const, k, v, exp }] : [])),
    ...[...maps].flatMap(([k, m]) =>
      m.exp > now ? [...m.fields].map(([f, v]) => ({ o: 'mapSet' as const, k, f, v, exp: m.exp })) : [],
    ),
  ];
  const replay = Promise.all(
    live.map((l) => (l.o === 'set' ? kv.set(l.k, l.v, l.exp - now) : kv.mapSet(l.k, l.f, l.v, l.exp - now))),
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const unlock = takeJournalLock(file);
  if (unlock) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, live.map((l) => JSON.stringify(l) + '\n').join(''), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  const append = (l: JournalLine) => fs.appendFileSync(file, JSON.stringify(l) + '\n', { mode: 0o600 });
  // What the revocation store does not write goes straight to the memory store (its methods, bound: it is a class).
  const pass = <K extends keyof KvStore>(k: K) =>
    (kv[k] as (...a: unknown[]) => unknown).bind(kv) as KvStore[K];
  return {
    setIfAbsent: pass('setIfAbsent'),
    incr: pass('incr'),
    incrAndGate: pass('incrAndGate'),
    decr: pass('decr'),
    del: pass('del'),
    delIfEquals: pass('delIfEquals'),
    renewIfEquals: pass('renewIfEquals'),
    close: async () => {
      unlock?.();
      await kv.close();
    },
    get: async (key) => (await replay, kv.get(key)),
    getMany: async (keys) => (await replay, kv.getMany(keys)),
    mapGetAll: async (key) => (await replay, kv.mapGetAll(key)),
    async set(key, value, ttlMs) {
      await replay;
      append({ o: 'set', k: key, v: value, exp: Date.now() + ttlMs });
      await kv.set(key, value, ttlMs);
    },
    async mapSet(key, field, value, ttlMs) {
      await replay;
      append({ o: 'mapSet', k: key, f: field, v: value, exp: Date.now() + ttlMs });
      await kv.mapSet(key, field, value, ttlMs);
    },
    async mapDelete(key, field) {
      await replay;
      append({ o: 'mapDelete', k: key, f: field });
      await kv.mapDelete(key, field);
    },
  };
}

/** What of a token the revocation check reads: kept, too, with what is issued on its strength (a browser ticket). */
export const presentedOf = (
  token: string,
  claims: { sub: string; sid?: string; iat?: number; use?: string },
): PresentedToken => ({
  sub: claims.sub,
  sid: claims.sid,
  iat: claims.iat,
  credential: claims.use === FASTRANS_TOKEN_USE ? credentialId(token) : undefined,
});

/**
 * The check a cluster service runs on every request after verifying a cluster token's signature (the verified-token
 * cache does not cover it): a token of an ended session answers "401" (the web then goes to the login page, as for
 * a timed-out session); a revoked day token or a disabled user's token "1406". Also run where something issued on
 * a token's strength is used later (`presented` kept with it): it ends with the token.
 */
export async function assertPresentedNotRevoked(
  store: RevocationStore,
  presented: PresentedToken,
): Promise<void> {
  const why = await store.revoked(presented);
  if (why === 'session') throw new AppError(PortalCodes.unauthorized, ServerKitText.sessionEnded);
  if (why) throw new AppError(CommonCodes.tokenWithoutUser, ServerKitText.tokenRevoked);
}

/** `assertPresentedNotRevoked` of a token presented now. */
export const assertNotRevoked = (
  store: RevocationStore,
  token: string,
  claims: { sub: string; sid?: string; iat?: number; use?: string },
): Promise<void> => assertPresentedNotRevoked(store, presentedOf(token, claims));
