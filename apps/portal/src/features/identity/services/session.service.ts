import crypto from 'node:crypto';
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
  csrfToken: string;
  expiresAt: number;
  idleExpiresAt: number;
}

export interface LiveSession {
  session: SessionRow;
  user: UserRow;
  expiresAt: number;
  idleExpiresAt: number;
}

const digest = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const randomToken = () => crypto.randomBytes(32).toString('base64url');

/**
 * Database sessions with an idle and an absolute lifetime (configurable; default 2 h and 7 days), so they survive
 * a restart and work across instances. A session of a user who has since been disabled is dead.
 */
export function createSessionService(deps: {
  sessions: SessionRepository;
  users: UserRepository;
  now: () => number;
  policy: SessionPolicy;
}) {
  const { sessions, users, now, policy } = deps;
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
      await sessions.insert({
        id: digest(token),
        user_id: userId,
        csrf_token: csrfToken,
        auth_method: authMethod,
        created_at: t,
        last_seen_at: t,
        expires_at: expiresAt,
        ip: meta.ip.slice(0, 64),
        user_agent: meta.userAgent.slice(0, 512),
      });
      return { token, csrfToken, expiresAt, idleExpiresAt: Math.min(expiresAt, t + policy.idleMs) };
    },

    /** The live session of a cookie value, or null (unknown, idle too long, past its end, user disabled). */
    async resolve(token: string | undefined): Promise<LiveSession | null> {
      if (!token || token.length > 100) return null;
      const id = digest(token);
      const session = await sessions.find(id);
      if (!session) return null;
      const t = now();
      if (session.expires_at <= t || t - session.last_seen_at >= policy.idleMs) {
        await sessions.delete(id);
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
        user,
        expiresAt: session.expires_at,
        idleExpiresAt: Math.min(session.expires_at, session.last_seen_at + policy.idleMs),
      };
    },

    async destroy(token: string | undefined): Promise<void> {
      if (token) await sessions.delete(digest(token));
    },

    /** Ends every session of a user (password change by an operator, disabling). */
    revokeUser: (userId: number) => sessions.deleteForUser(userId),

    sweep: () => sessions.deleteExpired(now(), policy.idleMs),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
