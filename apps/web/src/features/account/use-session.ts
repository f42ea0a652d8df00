import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@hpc/api-client';
import type { CurrentUser } from '@hpc/contracts';
import { clusterTokens, setClusterTokenRefresher } from '../clusters/cluster-tokens';
import { identity } from '../../shared/api/client';
import { hasSessionHint, rememberCsrfToken } from './portal-headers';
import { markSessionActive } from './session-expiry';

export const SESSION_QUERY_KEY = ['session'] as const;

/**
 * The session query over `/api/user/info`; null for a visitor. Without the CSRF cookie that every login sets there
 * is no session to ask about, so a visitor costs no request (and no 401 in the console). Silent: a 401 here is
 * handled by the session-expiry hook (login page or closing the window), not by a warning; no retry, since a
 * missing session will not come back by asking again.
 */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }): Promise<CurrentUser | null> =>
      hasSessionHint() ? identity.user.info({ signal }) : Promise.resolve(null),
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

/**
 * The current user. Also keeps the per-cluster token store in step with each answer and lends it the refetch, so
 * the tokens are renewed a few minutes before they expire (by the store's timer) through this same query.
 */
export function useSession(): Session {
  const queryClient = useQueryClient();
  const query = useQuery(sessionQueryOptions());

  useEffect(() => {
    setClusterTokenRefresher(async () => {
      const user = await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
      return user?.tokenList ?? [];
    });
  }, [queryClient]);

  const user = query.data ?? null;
  useEffect(() => {
    if (!user) return;
    clusterTokens.update(user.tokenList);
    rememberCsrfToken(user.session?.csrfToken);
    markSessionActive();
  }, [user]);

  const isAnonymous =
    query.data === null || (query.isError && isApiError(query.error) && query.error.status === 401);
  return { user, isLoading: query.isLoading, isAnonymous };
}
