import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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

/** The query of one page of a folder: shared by the hook and the prefetch that starts it before the page renders. */
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
  return useQuery({ ...directoryQueryOptions(api, loc, path), placeholderData: keepPreviousData });
}
