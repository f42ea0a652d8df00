import { useQuery } from '@tanstack/react-query';
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
export function useHomeItems(kind: CatalogKind, sort: CatalogSort) {
  return useQuery({
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
