import { useEffect, useRef } from 'react';
import { usePreferences } from '../../../shared/preferences/preferences';
import { serverLocale } from '../../../shared/i18n/languages';
import { useSession } from '../../account';
import { identity } from '../../../shared/api/client';
import { afterRead, changesToSave, type PreferenceValues } from './preference-rules';

/**
 * Keeps language and theme on the server per user (docs/DECISIONS.md), so they follow the user to another browser:
 * at login the server's choice wins where it has one; after that every change the user makes while logged in, from
 * the header or the user centre, is saved. Only changes are saved (never the browser's defaults at login), so a
 * user who never chose anything keeps each browser's own setting. Renders nothing; failures stay silent (the
 * browser's localStorage still holds the choice).
 */
export function PreferencesSync() {
  const { user } = useSession();
  const { language: shown, setLanguage, theme, setTheme } = usePreferences();
  // The development pseudo-locale is English underneath: the server keeps the product's languages only.
  const language = serverLocale(shown);
  const userId = user?.id;
  const synced = useRef<(PreferenceValues & { userId: number }) | null>(null);
  const current = useRef<PreferenceValues>({ language, theme });
  current.current = { language, theme };

  useEffect(() => {
    synced.current = null;
    if (userId === undefined) return;
    const controller = new AbortController();
    const atStart = current.current;
    identity.user
      .preferences({ signal: controller.signal })
      .then((server) => {
        const local = current.current;
        const { values, synced: held, save } = afterRead(server, atStart, local);
        synced.current = { userId, ...held };
        if (values.language !== local.language) setLanguage(values.language);
        if (values.theme !== local.theme) setTheme(values.theme);
        if (Object.keys(save).length > 0) void identity.user.savePreferences(save).catch(() => undefined);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [userId, setLanguage, setTheme]);

  useEffect(() => {
    const s = synced.current;
    if (!s || s.userId !== userId) return;
    const patch = changesToSave(s, { language, theme });
    if (Object.keys(patch).length === 0) return;
    synced.current = { ...s, language, theme };
    void identity.user.savePreferences(patch).catch(() => undefined);
  }, [language, theme, userId]);

  return null;
}
