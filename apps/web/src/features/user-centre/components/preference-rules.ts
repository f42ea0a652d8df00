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
 * When the server's values arrive: `now` is what the browser shows, `chosen` what the user chose on this page that
 * the server has not taken yet (before the sync mounted, or while the answer was on its way). Such a choice is
 * newer than the server's: it stands and is saved (it would be lost). Anything else follows the server where it
 * has a value (a fresh browser, or a change made in another), the browser where it has none. `values` are what to
 * show; `synced` what the server holds once `save` (maybe empty) is saved.
 */
export function afterRead(
  server: Pick<UserPreferences, 'language' | 'theme'>,
  now: PreferenceValues,
  chosen: Partial<PreferenceValues>,
): { values: PreferenceValues; synced: PreferenceValues; save: UserPreferencesBody } {
  const mine = definedOnly(chosen);
  const values = { ...atLogin(server, now), ...mine };
  // Against what the server holds (nothing, maybe), not against what it would show: English chosen in a browser
  // already showing English is still the user's choice to keep.
  const save: UserPreferencesBody = {
    ...(mine.language !== undefined && mine.language !== server.language ? { language: mine.language } : {}),
    ...(mine.theme !== undefined && mine.theme !== server.theme ? { theme: mine.theme } : {}),
  };
  return { values, synced: values, save };
}

function definedOnly(v: Partial<PreferenceValues>): Partial<PreferenceValues> {
  return {
    ...(v.language !== undefined ? { language: v.language } : {}),
    ...(v.theme !== undefined ? { theme: v.theme } : {}),
  };
}

/** After login: what to save when the values changed from the last synced ones (empty: nothing to save). */
export function changesToSave(synced: PreferenceValues, now: PreferenceValues): UserPreferencesBody {
  return {
    ...(now.language !== synced.language ? { language: now.language } : {}),
    ...(now.theme !== synced.theme ? { theme: now.theme } : {}),
  };
}
