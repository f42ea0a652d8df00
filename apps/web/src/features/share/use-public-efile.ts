import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiClient, identityApi } from '@hpc/api-client';
import { languageHeaders } from '../../shared/api/request-options';
import { createServiceDiscovery, isServiceDiscoveryError, type ServiceDiscoveryError } from '../clusters';

/** The portal's anonymous call: no session, so none of the logged-in client's 401 handling. */
const portal = identityApi(
  new ApiClient({ baseUrl: import.meta.env.VITE_API_BASE_URL ?? '', headers: languageHeaders }),
);

/** Session storage looked up on each use (reading it can throw in privacy modes; the discovery copes). */
const tabStorage = {
  getItem: (k: string) => window.sessionStorage.getItem(k),
  setItem: (k: string, v: string) => window.sessionStorage.setItem(k, v),
  removeItem: (k: string) => window.sessionStorage.removeItem(k),
};

/**
 * The recipient's own service discovery (the same module as logged-in users': round-robin, health check, failover,
 * cache). Round-robin is by share id instead of user id, so the recipients of one link land on one instance.
 */
const discovery = createServiceDiscovery({ fetch: (i, init) => window.fetch(i, init), storage: tabStorage });

/** The enabled efile URLs the portal publishes for a cluster (`/api/center/publicEfileUrls.action`). */
export async function publicEfileCluster(clusterId: string, signal?: AbortSignal) {
  const { urls } = await portal.clusters.publicEfileUrls(clusterId, { signal });
  return {
    clusterId,
    centerName: clusterId,
    // The discovery reads the same service list the centres hold; every URL answered is enabled.
    params: { efileUrl: JSON.stringify(urls.map((url) => ({ url, enable: 'true' }))) },
  };
}

export interface PublicEfile {
  url: string | null;
  error: ServiceDiscoveryError | null;
  /** The portal could not be asked at all. */
  failed: boolean;
  isLoading: boolean;
  /** After a call to `url` failed as unreachable: forget it and pick the next working instance. */
  failover: () => void;
}

/** A working efile instance of `clusterId` for the recipient of share `shareId`, in any deployment layout. */
export function usePublicEfile(clusterId: string, shareId: string): PublicEfile {
  const qc = useQueryClient();
  const queryKey = ['share-public', clusterId, 'efile-url'];
  const q = useQuery({
    queryKey,
    queryFn: async ({ signal }) =>
      discovery.resolve(await publicEfileCluster(clusterId, signal), 'efile', shareId),
    enabled: clusterId !== '',
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
  const failover = useCallback(() => {
    discovery.invalidate(clusterId, 'efile', shareId);
    void qc.invalidateQueries({ queryKey: ['share-public', clusterId, 'efile-url'] });
  }, [qc, clusterId, shareId]);
  const error = isServiceDiscoveryError(q.error) ? q.error : null;
  return {
    url: q.data ?? null,
    error,
    failed: q.isError && !error,
    isLoading: q.isLoading,
    failover,
  };
}
