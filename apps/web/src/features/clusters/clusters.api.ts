import type { Cluster, ClusterUserBaseInfo } from '@hpc/contracts';
import { apiClient } from '../../shared/api/client';

export const clustersApi = {
  /** The user's clusters with their compute user and account details (spec §7). */
  baseInfo: (signal?: AbortSignal) =>
    apiClient.get<ClusterUserBaseInfo[]>('/api/computeuser/queryClusterUserBaseInfo.action', undefined, {
      signal,
    }),
  /** Every current cluster: the manager's view (spec §6); others are refused. */
  all: (signal?: AbortSignal) =>
    apiClient.get<Cluster[]>('/api/center/queryCurClusterList.action', undefined, { signal }),
};
