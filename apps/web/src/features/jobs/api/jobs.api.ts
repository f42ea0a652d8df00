import { ApiClient, jobsApi } from '@hpc/api-client';
import { getClusterToken } from '../../clusters';
import { languageHeaders, NO_CACHE_HEADERS, RequestTimeouts } from '../../../shared/api/request-options';

/**
 * The typed job-service calls of `@hpc/api-client` for one cluster, as the browser makes them: that cluster's token
 * in the `token` header and the user's language (the service answers its messages in it).
 */
export function createJobsApi(clusterId: string, baseUrl: string) {
  const client = new ApiClient({
    baseUrl,
    timeoutMs: RequestTimeouts.main,
    headers: async () => ({
      ...languageHeaders(),
      ...NO_CACHE_HEADERS,
      token: (await getClusterToken(clusterId)) ?? '',
    }),
  });
  return { ...jobsApi(client, clusterId), baseUrl };
}
export type JobsApi = ReturnType<typeof createJobsApi>;
