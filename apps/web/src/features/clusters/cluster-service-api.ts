import { useMemo } from 'react';
import { ApiClient } from '@hpc/api-client';
import { getClusterToken } from '../../shared/api/cluster-tokens';
import { languageHeaders, NO_CACHE_HEADERS, RequestTimeouts } from '../../shared/api/request-options';
import type { ServiceKind } from './service-list';
import { useClusterService } from './use-cluster-service';

/**
 * The client of one cluster's own service as the browser calls it: that cluster's token in the `token` header and
 * the user's language (the service answers its messages in it).
 */
export function clusterServiceClient(clusterId: string, baseUrl: string): ApiClient {
  return new ApiClient({
    baseUrl,
    timeoutMs: RequestTimeouts.main,
    headers: async () => ({
      ...languageHeaders(),
      ...NO_CACHE_HEADERS,
      token: (await getClusterToken(clusterId)) ?? '',
    }),
  });
}

/**
 * Where a page stands with a cluster's service. A centre that publishes none, or none enabled: `none`, a state the
 * pages show plainly, never as an error. `unreachable`: published but no instance answers.
 */
export type ClusterServiceState = 'loading' | 'none' | 'unreachable' | 'ready';

/**
 * The calls of a working instance of a cluster's `kind` service (spec §4: round-robin by user id, health check,
 * failover), made by `create` (a module-level function: the calls are made again only when the instance changes),
 * with where the page stands and the service itself (its failover).
 */
export function useClusterServiceApi<T>(
  clusterId: string | null | undefined,
  kind: ServiceKind,
  create: (clusterId: string, baseUrl: string) => T,
) {
  const service = useClusterService(clusterId, kind);
  const api: T | null = useMemo(
    () => (clusterId && service.url ? create(clusterId, service.url) : null),
    [clusterId, service.url, create],
  );
  const error = service.error?.kind;
  const state: ClusterServiceState = api
    ? 'ready'
    : error === 'NoService' || error === 'NoEnableService'
      ? 'none'
      : error === 'AccessError'
        ? 'unreachable'
        : 'loading';
  return { api, state, service };
}
