import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import i18n, { loadLanguage } from '../shared/i18n/i18n';
import { storedLanguage, type Language } from '../shared/i18n/languages';
import {
  PreferencesContext,
  type PreferenceChoices,
  type UnsavedChoices,
} from '../shared/preferences/preferences';
import { DEFAULT_THEME, isThemeName, type ThemeName } from '../shared/preferences/themes';
import { local, StorageKeys } from '../shared/utils/storage';

// Features read the preferences from shared/ (they never import the app); re-exported for the shell's own modules.
export { usePreferences } from '../shared/preferences/preferences';

function storedTheme(): ThemeName {
  const v = local.get(StorageKeys.theme);
  return isThemeName(v) ? v : DEFAULT_THEME;
}

/**
 * Language and theme: chosen in the header or the user centre, remembered in localStorage, mirrored on <html>. The
 * user's choices are also noted until the preferences sync takes them to save for the user: the sync is loaded
 * lazily and may mount, and read the server's values, after a choice made in the page's first instant.
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(storedLanguage);
  const [theme, setThemeState] = useState<ThemeName>(storedTheme);
  const unsavedChoices = useRef<PreferenceChoices>({});
  // The language last asked for: its texts may load after those of one asked for later, which must still win.
  const wantedLanguage = useRef<Language>(language);

  useEffect(() => {
    document.documentElement.lang = language;
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [language]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  const applyLanguage = useCallback((l: Language) => {
    local.set(StorageKeys.language, l);
    wantedLanguage.current = l;
    // Switch once the language's texts are loaded, so no screen shows half-translated.
    void loadLanguage(l).then(() => {
      if (wantedLanguage.current === l) setLanguageState(l);
    });
  }, []);
  const applyTheme = useCallback((t: ThemeName) => {
    local.set(StorageKeys.theme, t);
    setThemeState(t);
  }, []);

  const setLanguage = useCallback(
    (l: Language) => {
      unsavedChoices.current.language = l;
      applyLanguage(l);
    },
    [applyLanguage],
  );
  const setTheme = useCallback(
    (t: ThemeName) => {
      unsavedChoices.current.theme = t;
      applyTheme(t);
    },
    [applyTheme],
  );
  const applySaved = useCallback(
    (v: PreferenceChoices) => {
      if (v.language !== undefined) applyLanguage(v.language);
      if (v.theme !== undefined) applyTheme(v.theme);
    },
    [applyLanguage, applyTheme],
  );
  const unsaved = useMemo<UnsavedChoices>(
    () => ({
      take: () => {
        const choices = unsavedChoices.current;
        unsavedChoices.current = {};
        return choices;
      },
      clear: () => {
        unsavedChoices.current = {};
      },
    }),
    [],
  );

  const value = useMemo(
    () => ({ language, setLanguage, theme, setTheme, applySaved, unsaved }),
    [language, setLanguage, theme, setTheme, applySaved, unsaved],
  );
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}
