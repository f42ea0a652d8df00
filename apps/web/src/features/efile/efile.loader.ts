import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryOptions } from '../account';
import {
  accountDeactivated,
  clusterServiceQueryOptions,
  clustersQueryOptions,
  serviceDiscovery,
  sortClusters,
} from '../clusters';
import { identity } from '../../shared/api/client';
import { createEfileApi, type EfileApi } from './api/efile.api';
import { directoryQueryOptions, pageRequest } from './hooks/use-directory';
import { initInfoQueryOptions } from './hooks/use-efile-client';
import { parseLocation, type EfileLocation } from './hooks/use-efile-location';

/**
 * The /efile route's loader: the folder the address names, loaded at navigation into the very queries the page's
 * hooks read (the same query options, so the keys cannot drift apart): session → clusters → a working instance →
 * initInfo and the folder's page. On the first visit it runs while the route's code loads; on a click to another
 * folder or page it starts before React renders the new address.
 *
 * It starts the work and does not hold the navigation: the page shows its own loading state and reports its own
 * failures (FolderError, ClusterUnavailable) inside itself, so a failure here is left for the page's queries to meet.
 */
export function efileLoader(qc: QueryClient, url: URL, signedIn: boolean): void {
  // Without a session (the shell knows by its cookie) the page sends the visitor to the login page.
  if (signedIn) void loadFolder(qc, url.searchParams).catch(() => undefined);
}

async function loadFolder(qc: QueryClient, search: URLSearchParams): Promise<void> {
  const loc = parseLocation(search);
  const known = qc.getQueryData(sessionQueryOptions().queryKey);
  // On a first visit the cluster list is asked for together with the session (keyed by the user id, which only the
  // session's answer tells): one round trip less before the folder is asked for.
  const clustersEarly = known ? null : identity.clusters.baseInfo();
  clustersEarly?.catch(() => undefined);
  const user = known ?? (await qc.ensureQueryData(sessionQueryOptions()));
  if (!user) return;
  const list = await qc.ensureQueryData(
    clustersEarly
      ? { ...clustersQueryOptions(user.id), queryFn: () => clustersEarly }
      : clustersQueryOptions(user.id),
  );
  const clusters = sortClusters(list);
  const cluster = clusters.find((c) => c.clusterId === loc.cluster) ?? clusters[0];
  // A deactivated account: the page calls nothing there, it shows why (efile would answer 1007 to each call).
  if (!cluster || accountDeactivated(cluster)) return;
  const service = clusterServiceQueryOptions(user.id, cluster, 'efile');
  // A first visit checks the service's health before using it. The folder is asked of the instance the check will
  // most likely pick at the same time, and kept only if the check picks it: one round trip less on the first open.
  const guess = qc.getQueryData(service.queryKey) ? null : serviceDiscovery.likely(cluster, 'efile', user.id);
  const early = guess ? startFolder(createEfileApi(cluster.clusterId, guess), loc) : null;
  const url = await qc.ensureQueryData(service).catch((e: unknown) => {
    early?.abort();
    throw e;
  });
  if (early && url !== guess) early.abort();
  const used = early && url === guess ? early : null;
  const api = used?.api ?? createEfileApi(cluster.clusterId, url);
  // Filed under the page's own keys; silent: should these fail, the page's own queries ask again and report it once.
  const init = qc.ensureQueryData({
    ...initInfoQueryOptions(api),
    ...(used ? { queryFn: () => used.init } : {}),
    meta: { silent: true },
  });
  const path = loc.path ?? (await init).homePath;
  await qc.prefetchQuery({
    ...directoryQueryOptions(api, loc, path),
    ...(used ? { queryFn: () => used.list } : {}),
    meta: { silent: true },
  });
}

/** initInfo and the folder's first page (the home folder's when the address names none), started at once. */
function startFolder(api: EfileApi, loc: EfileLocation) {
  const ctrl = new AbortController();
  const init = api.initInfo(ctrl.signal);
  const list = (async () => api.list(pageRequest(loc, loc.path ?? (await init).homePath), ctrl.signal))();
  // An abandoned guess is never awaited: it must not leave unhandled rejections behind.
  init.catch(() => undefined);
  list.catch(() => undefined);
  return { api, init, list, abort: () => ctrl.abort() };
}
