import { Limits, type CatalogSort } from '@hpc/contracts';

/** What a catalogue list shows; lives in the address so a list can be shared and reloaded (issue §7). */
export interface ListState {
  keyword: string;
  labels: string[];
  acceleratorType: string;
  category: string;
  sort: CatalogSort;
  page: number;
  size: number;
}

export const SORTS: readonly CatalogSort[] = ['newest', 'downloads', 'name'];
/** Page sizes of spec §9 that the catalogue API accepts: all of them, up to 500 as in E-File. */
export const PAGE_SIZES = Limits.pageSizes.filter((s) => s <= Limits.maxCatalogPageSize);

const positive = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export function parseListState(params: URLSearchParams): ListState {
  const sort = params.get('sort') as CatalogSort | null;
  const size = positive(params.get('size'), Limits.defaultPageSize);
  return {
    keyword: params.get('keyword') ?? '',
    labels: [...new Set(params.getAll('labels').filter(Boolean))],
    acceleratorType: params.get('acceleratorType') ?? '',
    category: params.get('category') ?? '',
    sort: sort && SORTS.includes(sort) ? sort : 'newest',
    page: positive(params.get('page'), 1),
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : Limits.defaultPageSize,
  };
}

/** The inverse of {@link parseListState}; defaults are left out so addresses stay short. */
export function toListParams(state: ListState): URLSearchParams {
  const p = new URLSearchParams();
  if (state.keyword) p.set('keyword', state.keyword);
  if (state.acceleratorType) p.set('acceleratorType', state.acceleratorType);
  if (state.category) p.set('category', state.category);
  for (const l of state.labels) p.append('labels', l);
  if (state.sort !== 'newest') p.set('sort', state.sort);
  if (state.page > 1) p.set('page', String(state.page));
  if (state.size !== Limits.defaultPageSize) p.set('size', String(state.size));
  return p;
}

/** The list body every catalogue list call takes (contracts' list fields). */
export function toListBody(state: ListState) {
  return {
    keyword: state.keyword || undefined,
    labels: state.labels.length ? state.labels : undefined,
    sort: state.sort,
    pageNum: state.page,
    pageSize: state.size,
  };
}
