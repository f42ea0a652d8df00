import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AppListBody } from '@hpc/contracts';
import { api } from '../../../shared/api/client';

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
