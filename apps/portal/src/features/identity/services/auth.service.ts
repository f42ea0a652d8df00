import { PortalCodes } from '@hpc/contracts';
import type { CurrentUser } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { UserService } from './user.service';
import type { UserRow } from '../data/user.repository';
import type { ClusterTokenService } from './cluster-token.service';
import type { LoginThrottle } from './login-throttle';
import type { LiveSession, NewSession, SessionService } from './session.service';

/** Password login and the "current user" answer (spec §3 "User": id, userInfo, tokenList). */
export function createAuthService(deps: {
  users: UserService;
  sessions: SessionService;
  throttle: LoginThrottle;
  tokens: ClusterTokenService;
}) {
  const { users, sessions, throttle, tokens } = deps;

  const service = {
    /**
     * Counts the attempt in the throttle first, then checks the password (argon2id); a failure stays counted against
     * the user name and the address and answers LOGIN_FAILED whatever the reason, so the answer does not tell which
     * user names exist.
     */
    async login(
      username: string,
      password: string,
      meta: { ip: string; userAgent: string },
    ): Promise<{ user: UserRow; session: NewSession }> {
      const attempt = await throttle.attempt(username, meta.ip);
      const user = await users.authenticate(username, password);
      if (!user) throw new AppError(PortalCodes.loginFailed);
      await attempt.succeeded();
      return { user, session: await sessions.create(user.id, 'password', meta) };
    },

    /**
     * The user's own password change, its old password counted in the login's throttle as a login is: whoever holds
     * a session (a laptop left open) cannot guess the password there without limit, nor make the server run argon2
     * for every guess (found from outside, 2026-12-01: ten parallel wrong guesses were all checked).
     */
    async changeOwnPassword(
      user: Pick<UserRow, 'id' | 'username'>,
      change: { oldPassword: string; newPassword: string; keepSession: string },
      ip: string,
    ): Promise<number> {
      const attempt = await throttle.attempt(user.username, ip);
      const ended = await users.changeOwnPassword(
        user.id,
        change.oldPassword,
        change.newPassword,
        change.keepSession,
      );
      await attempt.succeeded();
      return ended;
    },

    async currentUser(
      user: UserRow,
      session: Pick<NewSession, 'sid' | 'csrfToken' | 'expiresAt' | 'idleExpiresAt'>,
      authMethod: 'password' | 'oidc',
    ): Promise<CurrentUser> {
      return {
        id: user.id,
        userInfo: {
          username: user.username,
          fullName: user.full_name,
          email: user.email,
          role: user.role,
          authMethod,
        },
        tokenList: await tokens.tokenList(user.id, session.sid),
        session: {
          csrfToken: session.csrfToken,
          expiresAt: session.expiresAt,
          idleExpiresAt: session.idleExpiresAt,
        },
      };
    },

    fromLive: (live: LiveSession) =>
      service.currentUser(
        live.user,
        {
          sid: live.sid,
          csrfToken: live.session.csrf_token,
          expiresAt: live.expiresAt,
          idleExpiresAt: live.idleExpiresAt,
        },
        live.session.auth_method,
      ),
  };
  return service;
}

export type AuthService = ReturnType<typeof createAuthService>;
