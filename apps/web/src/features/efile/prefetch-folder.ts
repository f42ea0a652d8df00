import type { QueryClient } from '@tanstack/react-query';
import type { ClusterUserBaseInfo } from '@hpc/contracts';
import { sessionQueryOptions } from '../account/use-session';
import { clusterTokens } from '../clusters/cluster-tokens';
import { sortClusters } from '../clusters/cluster-sort';
import { serviceDiscovery } from '../clusters/cluster-services';
import { clusterServiceQueryOptions } from '../clusters/use-cluster-service';
import { clustersQueryOptions } from '../clusters/use-clusters';
import { createEfileApi, type EfileApi } from './api/efile.api';
import { directoryQueryOptions, pageRequest } from './hooks/use-directory';
import { initInfoQueryOptions } from './hooks/use-efile-client';
import { parseLocation, type EfileLocation } from './hooks/use-efile-location';

/**
 * Fetches the folder at an /efile address before React renders the page, into the same cache entries the page's
 * hooks read: with user info and the cluster list (both asked for by app/early-start.ts), the service (its cached
 * URL or a health check), then initInfo and the folder's page together. Rendered the usual way, the first open of
 * a session waited for the route's code, then for each of these in turn; now they overlap with loading that code.
 * Best effort: any failure is left for the page's own queries to meet and report.
 */
export async function prefetchFolder(
  qc: QueryClient,
  search: URLSearchParams,
  clusterList: Promise<ClusterUserBaseInfo[]>,
): Promise<void> {
  const loc = parseLocation(search);
  const [user, raw] = await Promise.all([qc.fetchQuery(sessionQueryOptions()), clusterList]);
  if (!user) return;
  qc.setQueryData(clustersQueryOptions(user.id).queryKey, raw);
  // The page's efile calls read their token from the store, which useSession() would fill only after rendering.
  clusterTokens.update(user.tokenList);
  const clusters = sortClusters(raw);
  const cluster = clusters.find((c) => c.clusterId === loc.cluster) ?? clusters[0];
  if (!cluster) return;
  // A first visit checks the service's health before using it. The folder is asked of the instance the check will
  // most likely pick at the same time, and kept only if the check picks it: one round trip less on the first open.
  const guess = serviceDiscovery.likely(cluster, 'efile', user.id);
  const early = guess ? startFolder(createEfileApi(cluster.clusterId, guess), loc) : null;
  let url: string;
  try {
    url = await qc.fetchQuery(clusterServiceQueryOptions(user.id, cluster, 'efile'));
  } catch (e) {
    early?.abort();
    throw e;
  }
  if (early && url !== guess) early.abort();
  const { api, init, list } =
    early && url === guess ? early : startFolder(createEfileApi(cluster.clusterId, url), loc);
  // Filed under the page's own keys, so its hooks wait for these instead of asking again. Silent here: should they
  // fail, the page's queries ask again and report it once.
  void qc.prefetchQuery({ ...initInfoQueryOptions(api), queryFn: () => init, meta: { silent: true } });
  const path = loc.path ?? (await init).homePath;
  await qc.prefetchQuery({
    ...directoryQueryOptions(api, loc, path),
    queryFn: () => list,
    meta: { silent: true },
  });
}

/** initInfo and the folder's first page (the home folder's when the address names none), started at once. */
function startFolder(api: EfileApi, loc: EfileLocation) {
  const ctrl = new AbortController();
  const init = api.initInfo(ctrl.signal);
  const list = (async () => {
    const path = loc.path ?? (await init).homePath;
    return api.list(pageRequest(loc, path), ctrl.signal);
  })();
  // An abandoned guess is never awaited: it must not leave unhandled rejections behind.
  init.catch(() => undefined);
  list.catch(() => undefined);
  return { api, init, list, abort: () => ctrl.abort() };
}
