import crypto from 'node:crypto';
import type { RevocationStore } from '@hpc/server-kit';
import type { UserRepository, UserRow } from '../data/user.repository';
import type { SessionRepository, SessionRow } from '../data/session.repository';

/** Refreshing last_seen_at at most once a minute keeps a busy page from writing on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

export interface NewSession {
  /** The cookie value (256 random bits); only its SHA-256 is stored. */
  token: string;
  /** The session's public id (`sidOf`). */
  sid: string;
  csrfToken: string;
  expiresAt: number;
  idleExpiresAt: number;
}

export interface LiveSession {
  session: SessionRow;
  /** The session's public id (`sidOf`): the cluster tokens' `sid` claim and the user centre's handle. */
  sid: string;
  user: UserRow;
  expiresAt: number;
  idleExpiresAt: number;
}

const digest = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const randomToken = () => crypto.randomBytes(32).toString('base64url');
/**
 * The public id of a session: derived from its row id (itself the SHA-256 of the cookie) one way, so a cluster token
 * or the user centre's page that carries it leads neither to the cookie nor to the row's key. 128 bits.
 */
export const sidOf = (rowId: string) =>
  crypto.createHash('sha256').update(`sid|${rowId}`).digest('base64url').slice(0, 22);

/** One of a user's sessions as the user centre shows it. */
export interface SessionSummary {
  id: string;
  current: boolean;
  ip: string;
  userAgent: string;
  authMethod: SessionRow['auth_method'];
  createdAt: number;
  lastSeenAt: number;
}

/**
 * Database sessions with an idle and an absolute lifetime (configurable; default 2 h and 7 days), so they survive
 * a restart and work across instances. A session of a user who has since been disabled is dead. Every way a
 * session ends is recorded in the revocation store too (`ended`), so the cluster tokens issued for it stop working
 * in every cluster service at once (issue 25 §1.3).
 */
export function createSessionService(deps: {
  sessions: SessionRepository;
  users: UserRepository;
  revocations: RevocationStore;
  now: () => number;
  policy: SessionPolicy;
}) {
  const { sessions, users, revocations, now, policy } = deps;
  /** Records that these sessions (row ids) ended. */
  const ended = (ids: readonly string[]) => revocations.endSessions(ids.map(sidOf));
  /**
   * Ended for safety (not a logout): what these sessions asked for of day tokens and Linux commands is revoked
   * too, so that a stolen session leaves nothing behind that outlives it.
   */
  const endedForSafety = async (userId: number, ids: readonly string[]) => {
    await ended(ids);
    await revocations.revokeIssuedBy(String(userId), ids.map(sidOf));
  };
  /** Deletes the sessions of a user (all, or all but `keep`) and records them ended; returns how many. */
  const endForUser = async (userId: number, keep?: string) => {
    const ids = await sessions.deleteForUser(userId, keep);
    await endedForSafety(userId, ids);
    return ids.length;
  };
  return {
    async create(
      userId: number,
      authMethod: SessionRow['auth_method'],
      meta: { ip: string; userAgent: string },
    ): Promise<NewSession> {
      const t = now();
      const token = randomToken();
      const csrfToken = randomToken();
      const expiresAt = t + policy.maxMs;
      const id = digest(token);
      await sessions.insert({
        id,
        user_id: userId,
        csrf_token: csrfToken,
        auth_method: authMethod,
        created_at: t,
        last_seen_at: t,
        expires_at: expiresAt,
        ip: meta.ip.slice(0, 64),
        user_agent: meta.userAgent.slice(0, 512),
      });
      return {
        token,
        sid: sidOf(id),
        csrfToken,
        expiresAt,
        idleExpiresAt: Math.min(expiresAt, t + policy.idleMs),
      };
    },

    /** The live session of a cookie value, or null (unknown, idle too long, past its end, user disabled). */
    async resolve(token: string | undefined): Promise<LiveSession | null> {
      if (!token || token.length > 100) return null;
      const id = digest(token);
      const session = await sessions.find(id);
      if (!session) return null;
      const t = now();
      if (session.expires_at <= t || t - session.last_seen_at >= policy.idleMs) {
        if (await sessions.delete(id)) await ended([id]);
        return null;
      }
      const user = await users.findById(session.user_id);
      if (!user || user.status !== 'active') return null;
      if (t - session.last_seen_at >= TOUCH_EVERY_MS) {
        await sessions.touch(id, t);
        session.last_seen_at = t;
      }
      return {
        session,
        sid: sidOf(id),
        user,
        expiresAt: session.expires_at,
        idleExpiresAt: Math.min(session.expires_at, session.last_seen_at + policy.idleMs),
      };
    },

    /** Logout. Only a session that existed is recorded ended (anyone may call logout with any cookie). */
    async destroy(token: string | undefined): Promise<void> {
      if (token && token.length <= 100 && (await sessions.delete(digest(token))))
        await ended([digest(token)]);
    },

    /** Ends every session of a user (password change by an operator, disabling); returns how many. */
    revokeUser: (userId: number) => endForUser(userId),

    /** Ends every session of a user but `keep` (the one that asked: a password change, "sign out elsewhere"). */
    endOthers: (live: LiveSession) => endForUser(live.user.id, live.session.id),

    /** Ends one session of the user by its public id; false when the user has no such session. */
    async endOne(userId: number, sid: string): Promise<boolean> {
      const row = (await sessions.listForUser(userId)).find((r) => sidOf(r.id) === sid);
      if (!row || !(await sessions.delete(row.id))) return false;
      await endedForSafety(userId, [row.id]);
      return true;
    },

    /** The user's live sessions, the most recently used first, `current` marking the caller's. */
    async list(live: LiveSession): Promise<SessionSummary[]> {
      const t = now();
      return (await sessions.listForUser(live.user.id))
        .filter((r) => r.expires_at > t && t - r.last_seen_at < policy.idleMs)
        .map((r) => ({
          id: sidOf(r.id),
          current: r.id === live.session.id,
          ip: r.ip,
          userAgent: r.user_agent,
          authMethod: r.auth_method,
          createdAt: r.created_at,
          lastSeenAt: r.last_seen_at,
        }));
    },

    /** Deletes the sessions past their end and records them ended (their tokens may live on for hours). */
    async sweep(): Promise<number> {
      const ids = await sessions.deleteExpired(now(), policy.idleMs);
      await ended(ids);
      return ids.length;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
