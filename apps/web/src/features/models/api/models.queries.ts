import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ModelListBody } from '@hpc/contracts';
import { api } from '../../../shared/api/client';

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
