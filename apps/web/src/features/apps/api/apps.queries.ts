import type { QueryClient } from '@tanstack/react-query';
import {
  idCatalogQueries,
  loadIdCatalogDetail,
  loadIdCatalogList,
} from '../../../shared/catalog/id-catalog.queries';
import { api } from '../../../shared/api/client';

export const appQueries = idCatalogQueries('apps', api.apps);

/** The /full-site/:id route's loader: the application, started at navigation (silent: the page reports failures). */
export function loadAppDetail(qc: QueryClient, params: { id?: string }) {
  loadIdCatalogDetail(qc, appQueries, params);
}

/** The /full-site-list route's loader: the page of the list the address asks for and its filters. */
export function loadAppList(qc: QueryClient, url: URL) {
  loadIdCatalogList(qc, appQueries, url);
}
