import { ApiClient, efileApi } from '@hpc/api-client';
import { getClusterToken } from '../../clusters';
import { languageHeaders, NO_CACHE_HEADERS, RequestTimeouts } from '../../../shared/api/request-options';

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
  });
  return { ...efileApi(client, clusterId), baseUrl, token };
}
export type EfileApi = ReturnType<typeof createEfileApi>;
