import { onSessionEnd } from '../account/session-expiry';
import { createClusterTokenStore, type TokenEntry } from './cluster-token-store';

let refresher: (() => Promise<readonly TokenEntry[]>) | null = null;

/**
 * The app's one store of per-cluster tokens. `useSession()` feeds it every `/api/user/info` answer and lends it the
 * refetch; efile clients read it with {@link getClusterToken} for their `token` header.
 */
export const clusterTokens = createClusterTokenStore({
  refresh: () =>
    refresher ? refresher() : Promise.reject(new Error('No session to refresh the cluster tokens')),
});

/** Set by `useSession()`: how to fetch a new token list (the session query, so both stay in step). */
export function setClusterTokenRefresher(fn: (() => Promise<readonly TokenEntry[]>) | null): void {
  refresher = fn;
}

/** The token for `clusterId`, refreshed first when it is about to expire; undefined without access there. */
export const getClusterToken = (clusterId: string): Promise<string | undefined> =>
  clusterTokens.get(clusterId);

onSessionEnd(() => clusterTokens.clear());
