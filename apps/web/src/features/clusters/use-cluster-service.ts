import { useCallback } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../account';
import { serviceDiscovery } from './cluster-services';
import type { DiscoveryCluster } from './service-discovery';
import { isServiceDiscoveryError, type ServiceDiscoveryError } from './service-errors';
import type { ServiceKind } from './service-list';
import { useClusters } from './use-clusters';

export interface ClusterService {
  /** Base URL of a working instance (absolute, or relative to the page in the all-in-one); null until known. */
  url: string | null;
  /** Why there is none: NoService, NoEnableService or AccessError, with `messageKey` under `clusters.`. */
  error: ServiceDiscoveryError | null;
  isLoading: boolean;
  /**
   * Call after a request to `url` failed for network reasons: forgets the instance and checks the others, so the
   * next render gets the next working one (spec §4 failover).
   */
  failover: () => void;
  /**
   * Forgets the failed instance and finds the next working one now, for work already under way (an upload that
   * lost its instance mid-way continues on the answer); null when no instance answers (AccessError).
   */
  switchInstance: () => Promise<string | null>;
}

/**
 * The query of a working instance: shared by the hook and by the E-File route's loader, which starts it at
 * navigation, so both land on the same cache entry.
 */
export function clusterServiceQueryOptions(
  userId: number | undefined,
  cluster: DiscoveryCluster | undefined,
  kind: ServiceKind,
) {
  return queryOptions({
    queryKey: ['cluster-service', userId, cluster?.clusterId, kind, cluster?.params] as const,
    queryFn: () => serviceDiscovery.resolve(cluster!, kind, userId!),
    enabled: userId !== undefined && cluster !== undefined,
    // The discovery keeps its own session cache; a failure is shown by the page (alert), not as a toast.
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
}

/** A working instance of a cluster's `kind` service for the current user (spec §4), e.g. `useClusterService(id, 'efile')`. */
export function useClusterService(clusterId: string | null | undefined, kind: ServiceKind): ClusterService {
  const { user } = useSession();
  const { clusters } = useClusters();
  const queryClient = useQueryClient();
  const cluster = clusters.find((c) => c.clusterId === clusterId);
  const query = useQuery(clusterServiceQueryOptions(user?.id, cluster, kind));

  const userId = user?.id;
  const failover = useCallback(() => {
    if (userId === undefined || !clusterId) return;
    serviceDiscovery.invalidate(clusterId, kind, userId);
    void queryClient.invalidateQueries({ queryKey: ['cluster-service', userId, clusterId, kind] });
  }, [queryClient, userId, clusterId, kind]);

  const switchInstance = useCallback(async () => {
    if (userId === undefined || !cluster) return null;
    serviceDiscovery.invalidate(cluster.clusterId, kind, userId);
    const url = await serviceDiscovery.resolve(cluster, kind, userId).catch(() => null);
    // The page follows: its next calls go to the instance found here (the discovery cached it).
    void queryClient.invalidateQueries({ queryKey: ['cluster-service', userId, cluster.clusterId, kind] });
    return url;
  }, [queryClient, userId, cluster, kind]);

  const error = isServiceDiscoveryError(query.error) ? query.error : null;
  return { url: query.data ?? null, error, isLoading: query.isLoading, failover, switchInstance };
}
