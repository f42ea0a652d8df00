import type { QueryClient } from '@tanstack/react-query';
import { hasSessionHint } from '../account/portal-headers';
import { sessionQueryOptions } from '../account/use-session';
import { sortClusters } from '../clusters/cluster-sort';
import { clusterServiceQueryOptions } from '../clusters/use-cluster-service';
import { clustersQueryOptions } from '../clusters/use-clusters';
import { identity } from '../../shared/api/client';
import { createEfileApi } from './api/efile.api';
import { directoryQueryOptions } from './hooks/use-directory';
import { initInfoQueryOptions } from './hooks/use-efile-client';
import { parseLocation } from './hooks/use-efile-location';

/**
 * The /efile route's loader: the folder the address names, loaded at navigation into the very queries the page's
 * hooks read (the same query options, so the keys cannot drift apart): session → clusters → a working instance →
 * initInfo and the folder's page. On the first visit it runs while the route's code loads; on a click to another
 * folder or page it starts before React renders the new address.
 *
 * It starts the work and does not hold the navigation: the page shows its own loading state and reports its own
 * failures (FolderError, ClusterUnavailable) inside itself, so a failure here is left for the page's queries to meet.
 */
export function efileLoader(qc: QueryClient, url: URL): void {
  void loadFolder(qc, url.searchParams).catch(() => undefined);
}

async function loadFolder(qc: QueryClient, search: URLSearchParams): Promise<void> {
  const loc = parseLocation(search);
  // Without the CSRF cookie there is no session: the page sends the visitor to the login page.
  if (!hasSessionHint()) return;
  const known = qc.getQueryData(sessionQueryOptions().queryKey);
  // On a first visit the cluster list is asked for together with the session (keyed by the user id, which only the
  // session's answer tells): one round trip less before the folder is asked for.
  const early = known ? null : identity.clusters.baseInfo();
  early?.catch(() => undefined);
  const user = known ?? (await qc.ensureQueryData(sessionQueryOptions()));
  if (!user) return;
  const list = await qc.ensureQueryData(
    early ? { ...clustersQueryOptions(user.id), queryFn: () => early } : clustersQueryOptions(user.id),
  );
  const clusters = sortClusters(list);
  const cluster = clusters.find((c) => c.clusterId === loc.cluster) ?? clusters[0];
  if (!cluster) return;
  const url = await qc.ensureQueryData(clusterServiceQueryOptions(user.id, cluster, 'efile'));
  const api = createEfileApi(cluster.clusterId, url);
  // Silent: should these fail, the page's own queries ask again and report it once.
  const init = qc.ensureQueryData({ ...initInfoQueryOptions(api), meta: { silent: true } });
  const path = loc.path ?? (await init).homePath;
  await qc.prefetchQuery({ ...directoryQueryOptions(api, loc, path), meta: { silent: true } });
}
