import { queryOptions, useQuery } from '@tanstack/react-query';
import { isApiError } from '@hpc/api-client';
import type { CurrentUser } from '@hpc/contracts';
import { clusterTokens } from '../../shared/api/cluster-tokens';
import { identity } from '../../shared/api/client';
import { hasSessionHint, rememberCsrfToken } from './portal-headers';
import { markSessionActive, onSessionEnd } from './session-expiry';

export const SESSION_QUERY_KEY = ['session'] as const;

/**
 * Takes in a session answer (`/api/user/info` or the login's): the cluster tokens go to the token store, the CSRF
 * token to the headers, and the tab notes that it has a session. Done where the answer arrives, not in a React
 * effect, so the first efile call of a page (started by a route loader) already finds its token.
 */
export function acceptSession(user: CurrentUser): CurrentUser {
  clusterTokens.update(user.tokenList);
  rememberCsrfToken(user.session?.csrfToken);
  markSessionActive();
  return user;
}

/** Asks the portal for the current user and takes the answer in; null for a visitor (no CSRF cookie). */
export async function fetchSession(signal?: AbortSignal): Promise<CurrentUser | null> {
  return hasSessionHint() ? acceptSession(await identity.user.info({ signal })) : null;
}

onSessionEnd(() => clusterTokens.clear());

/**
 * The session query over `/api/user/info`; null for a visitor. Without the CSRF cookie that every login sets there
 * is no session to ask about, so a visitor costs no request (and no 401 in the console). Silent: a 401 here is
 * handled by the session-expiry hook (login page or closing the window), not by a warning; no retry, since a
 * missing session will not come back by asking again.
 */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: 5 * 60_000,
    retry: false,
    meta: { silent: true },
  });

export interface Session {
  /** The logged-in user, or null (not logged in, or not known yet). */
  user: CurrentUser | null;
  isLoading: boolean;
  /** Nobody is logged in: no session cookie, or the portal answered 401 (other failures leave this false). */
  isAnonymous: boolean;
}

/** The current user (the per-cluster tokens were stored when the answer arrived: {@link acceptSession}). */
export function useSession(): Session {
  const query = useQuery(sessionQueryOptions());
  const user = query.data ?? null;

  const isAnonymous =
    query.data === null || (query.isError && isApiError(query.error) && query.error.status === 401);
  return { user, isLoading: query.isLoading, isAnonymous };
}
