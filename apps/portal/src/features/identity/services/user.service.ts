import { CommonCodes, PortalCodes, type UserRole } from '@hpc/contracts';
import { AppError, type RevocationStore } from '@hpc/server-kit';
import type { InTransaction } from '../data/repositories';
import type { SessionRepository } from '../data/session.repository';
import type { UserRepository, UserRow } from '../data/user.repository';
import { PASSWORD_MIN_LENGTH, hashPassword, verifyPassword } from '../data/password';
import { sidOf } from './session.service';
import { PortalText } from '../../../messages';

/** Login names: a letter, then letters, digits, `_`, `-` or `.`; at most 64 (POSIX-friendly, spec §5). */
const USERNAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export interface NewUser {
  username: string;
  /** Omit for users who only log in by single sign-on. */
  password?: string;
  fullName?: string;
  email?: string;
  role?: UserRole;
  oidc?: { issuer: string; subject: string };
}

/** The fields `updateUser` may change; absent ones stay. */
export interface UserPatch {
  password?: string;
  fullName?: string;
  email?: string;
  role?: UserRole;
  status?: UserRow['status'];
}

export function createUserService(deps: {
  users: UserRepository;
  sessions: SessionRepository;
  revocations: RevocationStore;
  transaction: InTransaction;
  now: () => number;
}) {
  const { users, sessions, revocations, transaction, now } = deps;

  /**
   * Records in the revocation store what a change ended, once it is committed: the deleted sessions, and a disabled
   * user (every token of theirs issued until now, sessions or not: day tokens too). Wall-clock time, as the
   * tokens' `iat` is.
   */
  const revoke = async (userId: number, sessionIds: readonly string[], disabled: boolean) => {
    await revocations.endSessions(sessionIds.map(sidOf));
    // What those sessions asked for (day tokens, Linux commands) goes with them: see session.service.
    await revocations.revokeIssuedBy(String(userId), sessionIds.map(sidOf));
    if (disabled) await revocations.disableUser(String(userId), Date.now());
  };

  const checkPassword = (password: string) => {
    if (password.length < PASSWORD_MIN_LENGTH) {
      throw new AppError(CommonCodes.invalidInput, PortalText.passwordTooShort(PASSWORD_MIN_LENGTH));
    }
  };

  const service = {
    /** The user, or AppError 404 naming the missing user name. */
    async get(username: string): Promise<UserRow> {
      const user = await users.findByUsername(username);
      if (!user) throw new AppError(PortalCodes.notFound, PortalText.noUserNamed(username));
      return user;
    },

    findById: (id: number) => users.findById(id),

    async add(input: NewUser): Promise<UserRow> {
      if (!USERNAME.test(input.username)) {
        throw new AppError(CommonCodes.invalidInput, PortalText.usernameInvalid);
      }
      if (input.password !== undefined) checkPassword(input.password);
      const taken = () =>
        new AppError(CommonCodes.invalidInput, PortalText.usernameExists(input.username), { status: 409 });
      // Asked first so that a taken name costs no password hash; the insert decides when two ask at once.
      if (await users.findByUsername(input.username)) throw taken();
      const t = now();
      const id = await users.insertIfFree({
        username: input.username,
        full_name: input.fullName ?? '',
        email: input.email ?? '',
        password_hash: input.password === undefined ? null : await hashPassword(input.password),
        role: input.role ?? 'user',
        status: 'active',
        oidc_issuer: input.oidc?.issuer ?? null,
        oidc_subject: input.oidc?.subject ?? null,
        created_at: t,
        updated_at: t,
      });
      if (id === null) throw taken();
      return (await users.findById(id))!;
    },

    /** Sets a user's password (operators) and ends their sessions, which the old password may have opened. */
    async setPassword(username: string, password: string): Promise<void> {
      checkPassword(password);
      const user = await service.get(username);
      await users.update(user.id, { password_hash: await hashPassword(password), updated_at: now() });
      await revoke(user.id, await sessions.deleteForUser(user.id), false);
    },

    async setRole(username: string, role: UserRole): Promise<void> {
      const user = await service.get(username);
      await users.update(user.id, { role, updated_at: now() });
    },

    async setStatus(username: string, status: UserRow['status']): Promise<void> {
      const user = await service.get(username);
      await users.update(user.id, { status, updated_at: now() });
      if (status === 'disabled') await revoke(user.id, await sessions.deleteForUser(user.id), true);
    },

    /**
     * Changes any of a user's password, name, e-mail, role and status in one transaction (the admin page and
     * `user set`): all of it or, when a rule refuses one field, none of it. A new password or a disabled user ends
     * the user's sessions, as `setPassword` and `setStatus` do.
     */
    async updateUser(username: string, patch: UserPatch): Promise<void> {
      const { password, fullName, email, role, status } = patch;
      await service.get(username);
      if (password !== undefined) checkPassword(password);
      const hash = password === undefined ? undefined : await hashPassword(password);
      const { userId, ended } = await transaction(async (repos) => {
        const user = await repos.users.findByUsername(username);
        if (!user) throw new AppError(PortalCodes.notFound, PortalText.noUserNamed(username));
        await repos.users.update(user.id, {
          ...(hash !== undefined ? { password_hash: hash } : {}),
          ...(fullName !== undefined ? { full_name: fullName } : {}),
          ...(email !== undefined ? { email } : {}),
          ...(role ? { role } : {}),
          ...(status ? { status } : {}),
          updated_at: now(),
        });
        const ended =
          hash !== undefined || status === 'disabled' ? await repos.sessions.deleteForUser(user.id) : [];
        return { userId: user.id, ended };
      });
      await revoke(userId, ended, status === 'disabled');
    },

    async update(username: string, patch: { fullName?: string; email?: string }): Promise<void> {
      const user = await service.get(username);
      await users.update(user.id, {
        ...(patch.fullName !== undefined ? { full_name: patch.fullName } : {}),
        ...(patch.email !== undefined ? { email: patch.email } : {}),
        updated_at: now(),
      });
    },

    /** Links (or unlinks, with null) a user to an OpenID subject so that SSO logs in as this user. */
    async linkOidc(username: string, oidc: { issuer: string; subject: string } | null): Promise<void> {
      const user = await service.get(username);
      await users.update(user.id, {
        oidc_issuer: oidc?.issuer ?? null,
        oidc_subject: oidc?.subject ?? null,
        updated_at: now(),
      });
    },

    /** The active user whose password this is, or null (unknown user, no password, wrong password, disabled). */
    async authenticate(username: string, password: string): Promise<UserRow | null> {
      const user = await users.findByUsername(username);
      const good = await verifyPassword(user?.password_hash ?? null, password);
      return good && user?.status === 'active' ? user : null;
    },

    /**
     * The user's own password change. Ends every other session of the user (a session stolen with the old
     * password, or opened elsewhere, must not survive the change: issue 25 §1.2) and keeps `keepSession`, the one
     * that made the change; returns how many were ended.
     */
    async changeOwnPassword(
      userId: number,
      oldPassword: string,
      newPassword: string,
      keepSession: string,
    ): Promise<number> {
      // The new password's rules first: a refusal of it is no guess at the old one (the login's throttle counts
      // those: auth.service).
      checkPassword(newPassword);
      const user = await users.findById(userId);
      if (!user || !(await verifyPassword(user.password_hash, oldPassword)))
        throw new AppError(PortalCodes.loginFailed);
      const hash = await hashPassword(newPassword);
      const ended = await transaction(async (repos) => {
        await repos.users.update(user.id, { password_hash: hash, updated_at: now() });
        return repos.sessions.deleteForUser(user.id, keepSession);
      });
      await revoke(user.id, ended, false);
      return ended.length;
    },

    /**
     * The portal user of an OpenID subject, created on first login. A new user takes the preferred name when it is
     * a valid, free user name; otherwise a suffixed one. An existing local user is never taken over by name: an
     * operator links them explicitly (`user link-sso`).
     */
    async findOrCreateOidc(
      oidc: { issuer: string; subject: string },
      profile: { preferredName: string; fullName: string; email: string },
    ): Promise<UserRow> {
      const existing = await users.findByOidc(oidc.issuer, oidc.subject);
      if (existing) return existing;
      const base = toUsername(profile.preferredName) ?? toUsername(`sso-${oidc.subject}`) ?? 'sso-user';
      let username = base;
      for (let n = 2; ; n++) {
        if (!(await users.findByUsername(username))) {
          try {
            return await service.add({ username, fullName: profile.fullName, email: profile.email, oidc });
          } catch (e) {
            if (!(e instanceof AppError && e.status === 409)) throw e;
            // Taken meanwhile: by this subject's own first login in another tab (its user is the answer), or by
            // someone else (the next free name).
            const raced = await users.findByOidc(oidc.issuer, oidc.subject);
            if (raced) return raced;
          }
        }
        username = `${base.slice(0, 58)}-${n}`;
      }
    },

    list: () => users.list(),
    count: () => users.count(),
  };
  return service;
}

/** A valid user name made from a claim: invalid characters become `_`; null when nothing usable is left. */
function toUsername(raw: string): string | null {
  const cleaned = raw
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 60);
  return USERNAME.test(cleaned) ? cleaned : null;
}

export type UserService = ReturnType<typeof createUserService>;
