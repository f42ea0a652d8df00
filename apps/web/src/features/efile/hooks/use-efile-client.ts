import { useMemo } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { pick } from '../../../shared/i18n/languages';
import { accountDeactivated, useClusterService, useClusters } from '../../clusters';
import { createEfileApi, type EfileApi } from '../api/efile.api';

/** The query of an efile's initInfo (home, roots, limits); the route's loader starts it too. */
export function initInfoQueryOptions(api: EfileApi | null) {
  return queryOptions({
    queryKey: ['efile', api?.clusterId ?? null, api?.baseUrl ?? null, 'init'],
    queryFn: ({ signal }) => api!.initInfo(signal),
    enabled: api !== null,
    staleTime: 5 * 60_000,
  });
}

/**
 * The efile of the chosen cluster (or the user's first one): a working instance found by service discovery with
 * failover, the calls bound to that cluster's token, and its initInfo (home, roots, limits). Where the user's account
 * is deactivated there are no calls (`api` null, `deactivated` true): efile would refuse each with 1007.
 */
export function useEfileClient(requested: string | null, lang: string) {
  const { clusters, isLoading: clustersLoading } = useClusters();
  const cluster = clusters.find((c) => c.clusterId === requested) ?? clusters[0];
  const clusterId = cluster?.clusterId ?? null;
  const service = useClusterService(clusterId, 'efile');
  const deactivated = accountDeactivated(cluster);
  const api: EfileApi | null = useMemo(
    () => (clusterId && service.url && !deactivated ? createEfileApi(clusterId, service.url) : null),
    [clusterId, service.url, deactivated],
  );
  const init = useQuery(initInfoQueryOptions(api));
  return {
    clusters,
    clustersLoading,
    clusterId,
    clusterName: cluster ? pick(lang, cluster.centerName, cluster.centerNameEn) : '',
    service,
    deactivated,
    api,
    init: init.data ?? null,
    initError: init.error,
  };
}
