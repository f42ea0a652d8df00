import { CommonCodes, PortalCodes } from '@hpc/contracts';
import type { UserPreferences, UserPreferencesBody, UserProfile } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { UserRepository } from '../identity';
import type { UserPreferenceRepository } from './user-preference.repository';
import { PortalText } from '../../messages';

/** The user centre's own rules: the profile as the user sees it, and preferences kept per user. */
export function createUserCentreService(deps: {
  users: UserRepository;
  preferences: UserPreferenceRepository;
  now: () => number;
}) {
  const { users, preferences, now } = deps;
  return {
    async profile(userId: number): Promise<UserProfile> {
      const u = await users.findById(userId);
      if (!u) throw new AppError(PortalCodes.unauthorized);
      return {
        id: u.id,
        username: u.username,
        fullName: u.full_name,
        email: u.email,
        role: u.role,
        createdAt: Number(u.created_at),
        hasPassword: u.password_hash !== null,
        sso: u.oidc_subject !== null,
        ssoProvider: u.oidc_issuer,
      };
    },

    async preferences(userId: number): Promise<UserPreferences> {
      const row = await preferences.find(userId);
      // Values are checked on the way in; a value an older version stored and this one no longer knows reads as
      // "never chosen" rather than breaking the page.
      return {
        language: row?.language === 'zh-CN' || row?.language === 'en-US' ? row.language : null,
        theme: row?.theme === 'dark_blue' || row?.theme === 'light_blue' ? row.theme : null,
        dashboardEntries: entriesOf(row?.dashboard_entries ?? null),
      };
    },

    async savePreferences(userId: number, body: UserPreferencesBody): Promise<UserPreferences> {
      const patch = {
        ...(body.language !== undefined ? { language: body.language } : {}),
        ...(body.theme !== undefined ? { theme: body.theme } : {}),
        ...(body.dashboardEntries !== undefined
          ? { dashboard_entries: JSON.stringify(body.dashboardEntries) }
          : {}),
      };
      if (Object.keys(patch).length === 0)
        throw new AppError(CommonCodes.incompleteParams, PortalText.preferencesEmpty);
      await preferences.upsert(userId, patch, now());
      return this.preferences(userId);
    },
  };
}

export type UserCentreService = ReturnType<typeof createUserCentreService>;

/** The stored quick entries, or null when never chosen or no longer readable (the default set then shows). */
function entriesOf(text: string | null): string[] | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.every((x) => typeof x === 'string' && /^[a-z][a-z0-9-]{0,31}$/.test(x))
      ? v
      : null;
  } catch {
    return null;
  }
}
