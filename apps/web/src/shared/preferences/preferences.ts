import { createContext, useContext } from 'react';
import type { Language } from '../i18n/languages';
import type { ThemeName } from './themes';

/** Language and theme as the shell keeps them (app/preferences.tsx provides them; features read them here). */
export interface Preferences {
  language: Language;
  setLanguage: (l: Language) => void;
  theme: ThemeName;
  setTheme: (t: ThemeName) => void;
}

export const PreferencesContext = createContext<Preferences | null>(null);

export function usePreferences(): Preferences {
  const p = useContext(PreferencesContext);
  if (!p) throw new Error('usePreferences outside <PreferencesProvider>');
  return p;
}
