import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ImageListBody } from '@hpc/contracts';
import { parseListState, toListBody, type ListState } from '../../../shared/catalog/list-state';
import { api } from '../../../shared/api/client';

/** The list call's body for a list state (the page's and the route loader's). */
export const imageListBody = (state: ListState): ImageListBody => ({
  ...toListBody(state),
  acceleratorType: state.acceleratorType || undefined,
  category: state.category || undefined,
});

/** Query definitions of the image centre; keys start with 'images' so one invalidation covers them all. */
export const imageQueries = {
  list: (body: ImageListBody) =>
    queryOptions({
      queryKey: ['images', 'list', body],
      queryFn: ({ signal }) => api.images.list(body, { signal }),
      placeholderData: keepPreviousData,
    }),
  acceleratorTypes: () =>
    queryOptions({
      queryKey: ['images', 'acceleratorTypes'],
      queryFn: ({ signal }) => api.images.acceleratorTypes({ signal }),
    }),
  labels: (acceleratorType: string) =>
    queryOptions({
      queryKey: ['images', 'labels', acceleratorType],
      queryFn: ({ signal }) => api.images.labels(acceleratorType || undefined, { signal }),
      placeholderData: keepPreviousData,
    }),
  categories: (acceleratorType: string) =>
    queryOptions({
      queryKey: ['images', 'categories', acceleratorType],
      queryFn: ({ signal }) => api.images.categories(acceleratorType || undefined, { signal }),
      placeholderData: keepPreviousData,
    }),
  detail: (acceleratorType: string, imageName: string) =>
    queryOptions({
      queryKey: ['images', 'detail', acceleratorType, imageName],
      queryFn: ({ signal }) => api.images.detail(acceleratorType, imageName, { signal }),
    }),
};

export { imagePath } from '../../../shared/catalog/catalog-paths';

/**
 * The /service-list route's loader: the page of images the address asks for and its filters, started at navigation
 * (silent: a failure is reported once, by the page's own queries).
 */
export function loadImageList(qc: QueryClient, url: URL) {
  const state = parseListState(url.searchParams);
  const silent = { meta: { silent: true } } as const;
  void qc.prefetchQuery({ ...imageQueries.list(imageListBody(state)), ...silent });
  void qc.prefetchQuery({ ...imageQueries.acceleratorTypes(), ...silent });
  void qc.prefetchQuery({ ...imageQueries.labels(state.acceleratorType), ...silent });
  void qc.prefetchQuery({ ...imageQueries.categories(state.acceleratorType), ...silent });
}

/**
 * The /image/:acceleratorType/:imageName route's loader: the image and the names of its accelerator and category,
 * started at navigation (silent: a failure is reported once, by the page's own queries).
 */
export function loadImageDetail(qc: QueryClient, params: { acceleratorType?: string; imageName?: string }) {
  const silent = { meta: { silent: true } } as const;
  void qc.prefetchQuery({
    ...imageQueries.detail(params.acceleratorType ?? '', params.imageName ?? ''),
    ...silent,
  });
  void qc.prefetchQuery({ ...imageQueries.acceleratorTypes(), ...silent });
  void qc.prefetchQuery({ ...imageQueries.categories(''), ...silent });
}
