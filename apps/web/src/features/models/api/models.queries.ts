import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ModelListBody } from '@hpc/contracts';
import { parseListState, toListBody, type ListState } from '../../../shared/catalog/list-state';
import { api } from '../../../shared/api/client';

/** The list call's body for a list state (the page's and the route loader's). */
export const modelListBody = (state: ListState): ModelListBody => ({
  ...toListBody(state),
  category: state.category || undefined,
});

export const modelQueries = {
  list: (body: ModelListBody) =>
    queryOptions({
      queryKey: ['models', 'list', body],
      queryFn: ({ signal }) => api.models.list(body, { signal }),
      placeholderData: keepPreviousData,
    }),
  categories: () =>
    queryOptions({
      queryKey: ['models', 'categories'],
      queryFn: ({ signal }) => api.models.categories({ signal }),
    }),
  labels: () =>
    queryOptions({ queryKey: ['models', 'labels'], queryFn: ({ signal }) => api.models.labels({ signal }) }),
  detail: (id: number) =>
    queryOptions({
      queryKey: ['models', 'detail', id],
      queryFn: ({ signal }) => api.models.detail(id, { signal }),
      enabled: Number.isInteger(id) && id > 0,
    }),
};

/**
 * The /model-zoo/:id route's loader: the model and the category names, started at navigation (silent: a failure
 * is reported once, by the page's own queries).
 */
export function loadModelDetail(qc: QueryClient, params: { id?: string }) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) return;
  void qc.prefetchQuery({ ...modelQueries.detail(id), meta: { silent: true } });
  void qc.prefetchQuery({ ...modelQueries.categories(), meta: { silent: true } });
}

/**
 * The /model-zoo/list route's loader: the page of the list the address asks for and its filters, started at navigation
 * (silent: a failure is reported once, by the page's own queries).
 */
export function loadModelList(qc: QueryClient, url: URL) {
  const state = parseListState(url.searchParams);
  void qc.prefetchQuery({ ...modelQueries.list(modelListBody(state)), meta: { silent: true } });
  void qc.prefetchQuery({ ...modelQueries.labels(), meta: { silent: true } });
  void qc.prefetchQuery({ ...modelQueries.categories(), meta: { silent: true } });
}
