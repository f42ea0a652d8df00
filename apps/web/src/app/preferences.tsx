import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import i18n, { loadLanguage } from '../shared/i18n/i18n';
import { storedLanguage, type Language } from '../shared/i18n/languages';
import { PreferencesContext } from '../shared/preferences/preferences';
import { DEFAULT_THEME, isThemeName, type ThemeName } from '../shared/preferences/themes';
import { local, StorageKeys } from '../shared/utils/storage';

// Features read the preferences from shared/ (they never import the app); re-exported for the shell's own modules.
export { usePreferences } from '../shared/preferences/preferences';

function storedTheme(): ThemeName {
  const v = local.get(StorageKeys.theme);
  return isThemeName(v) ? v : DEFAULT_THEME;
}

/** Language and theme: chosen in the header, remembered in localStorage, mirrored on <html>. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(storedLanguage);
  const [theme, setThemeState] = useState<ThemeName>(storedTheme);

  useEffect(() => {
    document.documentElement.lang = language;
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [language]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  const setLanguage = useCallback((l: Language) => {
    local.set(StorageKeys.language, l);
    // Switch once the language's texts are loaded, so no screen shows half-translated.
    void loadLanguage(l).then(() => setLanguageState(l));
  }, []);
  const setTheme = useCallback((t: ThemeName) => {
    local.set(StorageKeys.theme, t);
    setThemeState(t);
  }, []);

  const value = useMemo(
    () => ({ language, setLanguage, theme, setTheme }),
    [language, setLanguage, theme, setTheme],
  );
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}
