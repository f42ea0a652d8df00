import { useEffect, useRef } from 'react';
import type { UserPreferencesBody } from '@hpc/contracts';
import { usePreferences } from '../../../app/preferences';
import { isThemeName } from '../../../app/theme/themes';
import { isLanguage } from '../../../shared/i18n/languages';
import { useSession } from '../../account/use-session';
import { userCenterApi } from '../api/user-center.api';

interface Synced {
  userId: number;
  language: string;
  theme: string;
}

/**
 * Keeps language and theme on the server per user (docs/DECISIONS.md), so they follow the user to another browser:
 * at login the server's choice wins where it has one; after that every change the user makes while logged in, from
 * the header or the user centre, is saved. Only changes are saved (never the browser's defaults at login), so a
 * user who never chose anything keeps each browser's own setting. Renders nothing; failures stay silent (the
 * browser's localStorage still holds the choice).
 */
export function PreferencesSync() {
  const { user } = useSession();
  const { language, setLanguage, theme, setTheme } = usePreferences();
  const userId = user?.id;
  const synced = useRef<Synced | null>(null);
  const current = useRef({ language, theme });
  current.current = { language, theme };

  useEffect(() => {
    synced.current = null;
    if (userId === undefined) return;
    const controller = new AbortController();
    userCenterApi
      .preferences(controller.signal)
      .then((p) => {
        const local = current.current;
        const lang = isLanguage(p.language) ? p.language : local.language;
        const th = isThemeName(p.theme) ? p.theme : local.theme;
        synced.current = { userId, language: lang, theme: th };
        if (lang !== local.language) setLanguage(lang);
        if (th !== local.theme) setTheme(th);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [userId, setLanguage, setTheme]);

  useEffect(() => {
    const s = synced.current;
    if (!s || s.userId !== userId) return;
    const patch: UserPreferencesBody = {
      ...(language !== s.language ? { language } : {}),
      ...(theme !== s.theme ? { theme } : {}),
    };
    if (Object.keys(patch).length === 0) return;
    synced.current = { ...s, language, theme };
    void userCenterApi.savePreferences(patch).catch(() => undefined);
  }, [language, theme, userId]);

  return null;
}
