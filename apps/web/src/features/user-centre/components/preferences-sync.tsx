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
 * user who never chose anything keeps each browser's own setting. A choice made on this page before the server's
 * values arrived (even before this component, loaded lazily, mounted) is the newest: it stands and is saved. Renders
 * nothing; failures stay silent (the browser's localStorage still holds the choice).
 */
export function PreferencesSync() {
  const { user } = useSession();
  const { language: shown, theme, applySaved, unsaved } = usePreferences();
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
    identity.user
      .preferences({ signal: controller.signal })
      .then((server) => {
        const local = current.current;
        const mine = unsaved.take();
        const chosen: Partial<PreferenceValues> = {
          ...(mine.language ? { language: serverLocale(mine.language) } : {}),
          ...(mine.theme ? { theme: mine.theme } : {}),
        };
        const { values, synced: held, save } = afterRead(server, local, chosen);
        synced.current = { userId, ...held };
        // The user's own choices are in force already (a language maybe still loading its texts).
        applySaved({
          ...(!mine.language && values.language !== local.language ? { language: values.language } : {}),
          ...(!mine.theme && values.theme !== local.theme ? { theme: values.theme } : {}),
        });
        if (Object.keys(save).length > 0) void identity.user.savePreferences(save).catch(() => undefined);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [userId, applySaved, unsaved]);

  useEffect(() => {
    const s = synced.current;
    if (!s || s.userId !== userId) return;
    // Read already: changes are seen here, as they come; none is left for a later read to take.
    unsaved.clear();
    const patch = changesToSave(s, { language, theme });
    if (Object.keys(patch).length === 0) return;
    synced.current = { ...s, language, theme };
    void identity.user.savePreferences(patch).catch(() => undefined);
  }, [language, theme, userId, unsaved]);

  return null;
}
