import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { CatalogCard, CatalogSort } from '@hpc/contracts';
import { api } from '../../../shared/api/client';
import { appPath, imagePath, modelPath } from '../../../shared/catalog/catalog-paths';
import type { CatalogKind } from '../../../shared/catalog/catalog-list-view';

export interface HomeItem {
  card: CatalogCard;
  to: string;
}

const HOME_SIZE = 4;

/** A few items of one catalogue in one order, for the landing page strips. */
export function homeItemsQuery(kind: CatalogKind, sort: CatalogSort) {
  return queryOptions({
    queryKey: [kind, 'list', { sort, pageNum: 1, pageSize: HOME_SIZE }],
    queryFn: async ({ signal }): Promise<{ items: HomeItem[]; total: number }> => {
      const body = { sort, pageNum: 1, pageSize: HOME_SIZE };
      switch (kind) {
        case 'images': {
          const p = await api.images.list(body, { signal });
          return {
            total: p.total,
            items: p.list.map((c) => ({ card: c, to: imagePath(c.acceleratorType, c.imageName) })),
          };
        }
        case 'models': {
          const p = await api.models.list(body, { signal });
          return { total: p.total, items: p.list.map((c) => ({ card: c, to: modelPath(c.id) })) };
        }
        case 'apps': {
          const p = await api.apps.list(body, { signal });
          return { total: p.total, items: p.list.map((c) => ({ card: c, to: appPath(c.id) })) };
        }
      }
    },
  });
}

export function useHomeItems(kind: CatalogKind, sort: CatalogSort) {
  return useQuery(homeItemsQuery(kind, sort));
}

/**
 * The landing page's loader: the three entry cards' newest items and the "most downloaded" strip's first tab, started
 * at navigation with the page's code (app/routes.tsx), as every other route's data is.
 */
export function loadHome(qc: QueryClient) {
  const first: [CatalogKind, CatalogSort][] = [
    ['images', 'newest'],
    ['models', 'newest'],
    ['apps', 'newest'],
    ['images', 'downloads'],
  ];
  for (const [kind, sort] of first)
    void qc.prefetchQuery({ ...homeItemsQuery(kind, sort), meta: { silent: true } });
}
