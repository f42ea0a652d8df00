import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AppListBody } from '@hpc/contracts';
import { parseListState, toListBody, type ListState } from '../../../shared/catalog/list-state';
import { api } from '../../../shared/api/client';

/** The list call's body for a list state (the page's and the route loader's). */
export const appListBody = (state: ListState): AppListBody => ({
  ...toListBody(state),
  category: state.category || undefined,
});

export const appQueries = {
  list: (body: AppListBody) =>
    queryOptions({
      queryKey: ['apps', 'list', body],
      queryFn: ({ signal }) => api.apps.list(body, { signal }),
      placeholderData: keepPreviousData,
    }),
  categories: () =>
    queryOptions({
      queryKey: ['apps', 'categories'],
      queryFn: ({ signal }) => api.apps.categories({ signal }),
    }),
  labels: () =>
    queryOptions({ queryKey: ['apps', 'labels'], queryFn: ({ signal }) => api.apps.labels({ signal }) }),
  detail: (id: number) =>
    queryOptions({
      queryKey: ['apps', 'detail', id],
      queryFn: ({ signal }) => api.apps.detail(id, { signal }),
      enabled: Number.isInteger(id) && id > 0,
    }),
};

/** The /full-site/:id route's loader: the application, started at navigation (silent: the page reports failures). */
export function loadAppDetail(qc: QueryClient, params: { id?: string }) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) return;
  void qc.prefetchQuery({ ...appQueries.detail(id), meta: { silent: true } });
}

/**
 * The /full-site-list route's loader: the page of the list the address asks for and its filters, started at navigation
 * (silent: a failure is reported once, by the page's own queries).
 */
export function loadAppList(qc: QueryClient, url: URL) {
  const state = parseListState(url.searchParams);
  void qc.prefetchQuery({ ...appQueries.list(appListBody(state)), meta: { silent: true } });
  void qc.prefetchQuery({ ...appQueries.labels(), meta: { silent: true } });
  void qc.prefetchQuery({ ...appQueries.categories(), meta: { silent: true } });
}
