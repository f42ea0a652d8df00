import type { UserPreferences, UserPreferencesBody } from '@hpc/contracts';

export interface PreferenceValues {
  language: NonNullable<UserPreferences['language']>;
  theme: NonNullable<UserPreferences['theme']>;
}

/** At login: the server's choice wins where it has one; the browser's stands where it has none. */
export function atLogin(
  server: Pick<UserPreferences, 'language' | 'theme'>,
  local: PreferenceValues,
): PreferenceValues {
  return { language: server.language ?? local.language, theme: server.theme ?? local.theme };
}

/** After login: what to save when the values changed from the last synced ones (empty: nothing to save). */
export function changesToSave(synced: PreferenceValues, now: PreferenceValues): UserPreferencesBody {
  return {
    ...(now.language !== synced.language ? { language: now.language } : {}),
    ...(now.theme !== synced.theme ? { theme: now.theme } : {}),
  };
}
