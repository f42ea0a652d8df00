import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EfileApi } from '../api/efile.api';
import type { EfileLocation } from './use-efile-location';

export const directoryKey = (clusterId: string | null, path?: string) =>
  path === undefined ? ['efile', clusterId, 'list'] : ['efile', clusterId, 'list', path];

/** The list call's parameters for the page of `path` that `loc` shows. */
export const pageRequest = (loc: EfileLocation, path: string) => ({
  path,
  pageNum: loc.pageNum,
  pageSize: loc.pageSize,
  sort: loc.sort,
  order: loc.order,
  keyword: loc.keyword || undefined,
});

/** The query of one page of a folder: shared by the hook and the route's loader that starts it at navigation. */
export function directoryQueryOptions(api: EfileApi | null, loc: EfileLocation, path: string | null) {
  return queryOptions({
    queryKey: [
      ...directoryKey(api?.clusterId ?? null, path ?? ''),
      loc.pageNum,
      loc.pageSize,
      loc.sort,
      loc.order,
      loc.keyword,
    ],
    queryFn: ({ signal }) => api!.list(pageRequest(loc, path!), signal),
    enabled: api !== null && path !== null,
    staleTime: 10_000,
  });
}

/**
 * One page of a folder, sorted and filtered by the server: the browser never holds more than the page, so a folder
 * of 100,000 entries costs what a page costs. The previous page stays on screen while the next one loads.
 */
export function useDirectory(api: EfileApi | null, loc: EfileLocation, path: string | null) {
  // Silent: the page shows a failure in place of the folder, or reports a failed refresh itself (FileManager).
  return useQuery({
    ...directoryQueryOptions(api, loc, path),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/**
 * Asks for the next page while this one is read (when the browser is idle), so "next page" shows it from the cache
 * without a round trip. The server keeps a folder's sorted listing for 30 s: this costs it one more page's stats.
 * `total` is that of the page on screen (undefined while it loads).
 */
export function usePrefetchNextPage(
  api: EfileApi | null,
  loc: EfileLocation,
  path: string | null,
  total: number | undefined,
) {
  const qc = useQueryClient();
  const next = total !== undefined && loc.pageNum * loc.pageSize < total ? loc.pageNum + 1 : null;
  const { pageSize, sort, order, keyword, cluster } = loc;
  useEffect(() => {
    if (!api || !path || next === null) return;
    const at: EfileLocation = { cluster, path, pageNum: next, pageSize, sort, order, keyword };
    // Silent: nobody asked for this page yet. A page query that joins it files its own (reporting) options on
    // the query, so a failure the user waits for is still reported, once.
    const run = () =>
      void qc.prefetchQuery({ ...directoryQueryOptions(api, at, path), meta: { silent: true } });
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(run, 50);
      return () => clearTimeout(timer);
    }
    const id = requestIdleCallback(run, { timeout: 500 });
    return () => cancelIdleCallback(id);
  }, [qc, api, path, next, pageSize, sort, order, keyword, cluster]);
}
