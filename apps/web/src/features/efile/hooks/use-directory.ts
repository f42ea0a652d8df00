import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EfileApi } from '../api/efile.api';
import type { EfileLocation } from './use-efile-location';

export const directoryKey = (clusterId: string | null, path?: string) =>
  path === undefined ? ['efile', clusterId, 'list'] : ['efile', clusterId, 'list', path];

/**
 * One page of a folder, sorted and filtered by the server: the browser never holds more than the page, so a folder
 * of 100,000 entries costs what a page costs. The previous page stays on screen while the next one loads.
 */
export function useDirectory(api: EfileApi | null, loc: EfileLocation, path: string | null) {
  return useQuery({
    queryKey: [
      ...directoryKey(api?.clusterId ?? null, path ?? ''),
      loc.pageNum,
      loc.pageSize,
      loc.sort,
      loc.order,
      loc.keyword,
    ],
    queryFn: ({ signal }) =>
      api!.list(
        {
          path: path!,
          pageNum: loc.pageNum,
          pageSize: loc.pageSize,
          sort: loc.sort,
          order: loc.order,
          keyword: loc.keyword || undefined,
        },
        signal,
      ),
    enabled: api !== null && path !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
