import { ApiClient, efileApi } from '@hpc/api-client';
import { getClusterToken } from '../../clusters';
import { languageHeaders, NO_CACHE_HEADERS, RequestTimeouts } from '../../../shared/api/request-options';
import { reportClusterUnauthorized } from '../../../shared/api/client';

/**
 * The typed efile calls of `@hpc/api-client` for one cluster, as the browser makes them: that cluster's token in the
 * `token` header, the user's language, spec §9's second client (3000 s unless a call says otherwise, answers never
 * taken from a cache).
 */
export function createEfileApi(clusterId: string, baseUrl: string) {
  const token = async () => (await getClusterToken(clusterId)) ?? '';
  const client = new ApiClient({
    baseUrl,
    timeoutMs: RequestTimeouts.second,
    headers: async () => ({ ...languageHeaders(), ...NO_CACHE_HEADERS, token: await token() }),
    // A token whose session has ended (issue 25 §1.3) sends the page to the login page.
    onUnauthorized: reportClusterUnauthorized,
  });
  return { ...efileApi(client, clusterId), baseUrl, token };
}
export type EfileApi = ReturnType<typeof createEfileApi>;
