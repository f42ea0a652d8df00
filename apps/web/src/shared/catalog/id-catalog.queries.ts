import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AppListBody, Category, LabelGroup } from '@hpc/contracts';
import type { CallOptions } from '@hpc/api-client';
import { parseListState, toListBody, type ListState } from './list-state';

/**
 * The calls of a catalogue whose entries are numbered (the model zoo, the application centre): unlike the image
 * centre's, its filters do not depend on an accelerator type.
 */
export interface IdCatalogCalls<Page, Detail> {
  list(body: IdListBody, o?: CallOptions): Promise<Page>;
  categories(o?: CallOptions): Promise<Category[]>;
  labels(o?: CallOptions): Promise<LabelGroup[]>;
  detail(id: number, o?: CallOptions): Promise<Detail>;
}

/** The list call's body of either: contracts declares the two as one shape (the common list fields). */
export type IdListBody = AppListBody;

/** The list call's body for a list state (the page's and the route loader's). */
export const idCatalogListBody = (state: ListState): IdListBody => ({
  ...toListBody(state),
  category: state.category || undefined,
});

const validId = (id: number) => Number.isInteger(id) && id > 0;

/** The query definitions of such a catalogue; keys start with `kind` so one invalidation covers them all. */
export function idCatalogQueries<Page, Detail>(kind: string, calls: IdCatalogCalls<Page, Detail>) {
  return {
    list: (body: IdListBody) =>
      queryOptions({
        queryKey: [kind, 'list', body],
        queryFn: ({ signal }) => calls.list(body, { signal }),
        placeholderData: keepPreviousData,
      }),
    categories: () =>
      queryOptions({ queryKey: [kind, 'categories'], queryFn: ({ signal }) => calls.categories({ signal }) }),
    labels: () =>
      queryOptions({ queryKey: [kind, 'labels'], queryFn: ({ signal }) => calls.labels({ signal }) }),
    detail: (id: number) =>
      queryOptions({
        queryKey: [kind, 'detail', id],
        queryFn: ({ signal }) => calls.detail(id, { signal }),
        enabled: validId(id),
      }),
  };
}

export type IdCatalogQueries<Page, Detail> = ReturnType<typeof idCatalogQueries<Page, Detail>>;

const silent = { meta: { silent: true } } as const;

/**
 * A list route's loader: the page of the list the address asks for and its filters, started at navigation
 * (silent: a failure is reported once, by the page's own queries).
 */
export function loadIdCatalogList<Page, Detail>(
  qc: QueryClient,
  queries: IdCatalogQueries<Page, Detail>,
  url: URL,
) {
  void qc.prefetchQuery({ ...queries.list(idCatalogListBody(parseListState(url.searchParams))), ...silent });
  void qc.prefetchQuery({ ...queries.labels(), ...silent });
  void qc.prefetchQuery({ ...queries.categories(), ...silent });
}

/**
 * A detail route's loader: the entry, and the category names when the page shows them, started at navigation
 * (silent: the page reports failures). Nothing for an address that names no entry.
 */
export function loadIdCatalogDetail<Page, Detail>(
  qc: QueryClient,
  queries: IdCatalogQueries<Page, Detail>,
  params: { id?: string },
  opts: { categories?: boolean } = {},
) {
  const id = Number(params.id);
  if (!validId(id)) return;
  void qc.prefetchQuery({ ...queries.detail(id), ...silent });
  if (opts.categories) void qc.prefetchQuery({ ...queries.categories(), ...silent });
}
