import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginBody } from '@hpc/contracts';
import { identity } from '../../shared/api/client';
import i18n, { loadLanguage } from '../../shared/i18n/i18n';
import { serverLocale } from '../../shared/i18n/languages';
import { usePreferences, type Preferences } from '../../shared/preferences/preferences';
import { LOGIN_PATH } from './login-redirect';
import { endSession, markSessionActive } from './session-expiry';
import { acceptSession, SESSION_QUERY_KEY, sessionQueryOptions } from './use-session';

/** Whether SSO is configured (the login page shows its button then). Silent: without it the form still works. */
export function useAuthConfig() {
  return useQuery({
    queryKey: ['auth-config'],
    queryFn: ({ signal }) => identity.auth.config({ signal }),
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
}

/**
 * Logs in; the page shows the error itself (wrong password, throttling), so the mutation is silent. Everything
 * cached before belongs to nobody or to another user, so it is dropped and the session is read afresh.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  return useMutation({
    mutationFn: (body: LoginBody) => identity.auth.login(body),
    meta: { silent: true },
    onSuccess: async (user) => {
      // The server's values win at login: what was chosen before it (on the login page) is not saved for the user.
      preferences.unsaved.clear();
      endSession();
      markSessionActive();
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_QUERY_KEY[0] });
      if (user && typeof user === 'object' && 'tokenList' in user) {
        queryClient.setQueryData(SESSION_QUERY_KEY, acceptSession(user));
      } else {
        await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
      }
      await applySavedPreferences(preferences);
    },
  });
}

/**
 * The language and theme the user saved, in force before the login settles and the next page paints (issue 25
 * §3.2: the home page showed Chinese for 1–3 s, until the preferences' sync in the layout had loaded and asked).
 * That sync still runs and finds nothing to change; a failure here leaves the choice to it.
 */
async function applySavedPreferences(preferences: Preferences): Promise<void> {
  const saved = await identity.user.preferences().catch(() => null);
  if (saved?.language && saved.language !== serverLocale(preferences.language)) {
    await loadLanguage(saved.language);
    preferences.applySaved({ language: saved.language });
    await i18n.changeLanguage(saved.language);
    document.documentElement.lang = saved.language;
  }
  if (saved?.theme && saved.theme !== preferences.theme) preferences.applySaved({ theme: saved.theme });
}

/**
 * Logs out and loads the login page afresh: a full load is the one sure way to leave nothing of the old session in
 * memory (queries, tokens, service cache). A failed logout call still ends the session on this side.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => identity.auth.logout(),
    meta: { silent: true },
    onSettled: () => {
      endSession();
      queryClient.clear();
      window.location.assign(LOGIN_PATH);
    },
  });
}
