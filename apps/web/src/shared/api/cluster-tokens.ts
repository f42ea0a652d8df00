import { createClusterTokenStore } from './cluster-token-store';
import { identity } from './client';

/**
 * The app's one store of per-cluster tokens (the `token` header of every efile call). The session fetch fills it
 * (account's `fetchSession`, the login answer), the logout and an expired session clear it, and it renews the tokens
 * itself a few minutes before they expire with `POST /api/auth/refresh`, which answers only the token list. It sits
 * beside the API client, below every feature, so that no feature lends it anything back.
 */
export const clusterTokens = createClusterTokenStore({
  refresh: async () => (await identity.auth.refresh()).tokenList,
});

/** The token for `clusterId`, refreshed first when it is about to expire; undefined without access there. */
export const getClusterToken = (clusterId: string): Promise<string | undefined> =>
  clusterTokens.get(clusterId);
