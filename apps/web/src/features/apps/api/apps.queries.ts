import { keepPreviousData, queryOptions } from '@tanstack/react-query';
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
