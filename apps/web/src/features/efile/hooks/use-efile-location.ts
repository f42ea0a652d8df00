import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Limits } from '@hpc/contracts';
import type { SortKey } from '@hpc/api-client';

export interface EfileLocation {
  cluster: string | null;
  path: string | null;
  pageNum: number;
  pageSize: number;
  sort: SortKey;
  order: 'asc' | 'desc';
  keyword: string;
}

const SORTS: readonly SortKey[] = ['name', 'size', 'mtime', 'type', 'owner', 'permission'];

/** Reads the file manager's state from the address, so a folder can be bookmarked, reloaded and opened in a tab. */
export function parseLocation(sp: URLSearchParams): EfileLocation {
  const page = Number(sp.get('page'));
  const size = Number(sp.get('size'));
  const sort = sp.get('sort') as SortKey;
  return {
    cluster: sp.get('cluster'),
    path: sp.get('path'),
    pageNum: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: (Limits.pageSizes as readonly number[]).includes(size) ? size : Limits.defaultPageSize,
    sort: SORTS.includes(sort) ? sort : 'name',
    order: sp.get('order') === 'desc' ? 'desc' : 'asc',
    keyword: sp.get('q') ?? '',
  };
}

export function locationSearch(loc: Partial<EfileLocation>): URLSearchParams {
  const sp = new URLSearchParams();
  if (loc.cluster) sp.set('cluster', loc.cluster);
  if (loc.path) sp.set('path', loc.path);
  if (loc.pageNum && loc.pageNum > 1) sp.set('page', String(loc.pageNum));
  if (loc.pageSize && loc.pageSize !== Limits.defaultPageSize) sp.set('size', String(loc.pageSize));
  if (loc.sort && loc.sort !== 'name') sp.set('sort', loc.sort);
  if (loc.order === 'desc') sp.set('order', 'desc');
  if (loc.keyword) sp.set('q', loc.keyword);
  return sp;
}

/** The change of address that opens a folder: its first page, no search (the caller pushes a history entry). */
export const folderPatch = (path: string, cluster?: string): Partial<EfileLocation> => ({
  path,
  pageNum: 1,
  keyword: '',
  ...(cluster ? { cluster } : {}),
});

/**
 * The location and how to change it: `update(patch, push)` merges the patch into the address, replacing the entry
 * (paging, sorting, searching) or pushing a new one (`push`: a new folder, so Back goes up the way the user came).
 */
export function useEfileLocation() {
  const [sp, setSp] = useSearchParams();
  const loc = useMemo(() => parseLocation(sp), [sp]);
  const update = useCallback(
    (patch: Partial<EfileLocation>, push = false) => {
      setSp((prev) => locationSearch({ ...parseLocation(prev), ...patch }), { replace: !push });
    },
    [setSp],
  );
  return { loc, update };
}
