import { createContext, useContext } from 'react';
import type { Language } from '../i18n/languages';
import type { ThemeName } from './themes';

/** Values of the preferences the shell keeps (each key optional: some of them). */
export interface PreferenceChoices {
  language?: Language;
  theme?: ThemeName;
}

/** Language and theme as the shell keeps them (app/preferences.tsx provides them; features read them here). */
export interface Preferences {
  language: Language;
  /** The user's choice: in force at once, remembered in the browser, and noted as not yet saved for the user. */
  setLanguage: (l: Language) => void;
  theme: ThemeName;
  setTheme: (t: ThemeName) => void;
  /** Puts values saved for the user on the server in force: not a new choice, so nothing is noted to save. */
  applySaved: (values: PreferenceChoices) => void;
  /**
   * The choices the user made on this page that no preferences sync has taken yet (docs/DECISIONS.md, "A language
   * chosen before the preferences sync mounts"): the sync, loaded lazily, may mount after the user chose.
   */
  unsaved: UnsavedChoices;
}

export interface UnsavedChoices {
  /** The choices noted since the last `take` or `clear` (the last one per key), and forgets them. */
  take: () => PreferenceChoices;
  /** Forgets them: at login the user's saved values win over what the browser chose before. */
  clear: () => void;
}

export const PreferencesContext = createContext<Preferences | null>(null);

export function usePreferences(): Preferences {
  const p = useContext(PreferencesContext);
  if (!p) throw new Error('usePreferences outside <PreferencesProvider>');
  return p;
}
