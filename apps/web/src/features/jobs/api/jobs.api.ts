import { jobsApi } from '@hpc/api-client';
import { clusterServiceClient } from '../../clusters';

/**
 * The typed job-service calls of `@hpc/api-client` for one cluster, as the browser makes them: that cluster's token
 * in the `token` header and the user's language (the service answers its messages in it).
 */
export function createJobsApi(clusterId: string, baseUrl: string) {
  return { ...jobsApi(clusterServiceClient(clusterId, baseUrl), clusterId), baseUrl };
}
export type JobsApi = ReturnType<typeof createJobsApi>;
