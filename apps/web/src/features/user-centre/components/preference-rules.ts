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

/**
 * When the server's choice arrives: `atStart` is what the browser had when it asked, `now` what it has since. A
 * choice the user made while the answer was on its way is newer than the server's: it stands and is saved (it was
 * lost). `values` are what to show; `synced` what the server holds once `save` (maybe empty) is saved.
 */
export function afterRead(
  server: Pick<UserPreferences, 'language' | 'theme'>,
  atStart: PreferenceValues,
  now: PreferenceValues,
): { values: PreferenceValues; synced: PreferenceValues; save: UserPreferencesBody } {
  const fromServer = atLogin(server, atStart);
  const values = {
    language: now.language !== atStart.language ? now.language : fromServer.language,
    theme: now.theme !== atStart.theme ? now.theme : fromServer.theme,
  };
  return { values, synced: values, save: changesToSave(fromServer, values) };
}

/** After login: what to save when the values changed from the last synced ones (empty: nothing to save). */
export function changesToSave(synced: PreferenceValues, now: PreferenceValues): UserPreferencesBody {
  return {
    ...(now.language !== synced.language ? { language: now.language } : {}),
    ...(now.theme !== synced.theme ? { theme: now.theme } : {}),
  };
}
