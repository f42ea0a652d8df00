import type { QueryClient } from '@tanstack/react-query';
import {
  idCatalogQueries,
  loadIdCatalogDetail,
  loadIdCatalogList,
} from '../../../shared/catalog/id-catalog.queries';
import { api } from '../../../shared/api/client';

export const modelQueries = idCatalogQueries('models', api.models);

/** The /model-zoo/:id route's loader: the model and the category names it shows, started at navigation. */
export function loadModelDetail(qc: QueryClient, params: { id?: string }) {
  loadIdCatalogDetail(qc, modelQueries, params, { categories: true });
}

/** The /model-zoo/list route's loader: the page of the list the address asks for and its filters. */
export function loadModelList(qc: QueryClient, url: URL) {
  loadIdCatalogList(qc, modelQueries, url);
}
