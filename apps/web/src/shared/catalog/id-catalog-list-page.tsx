import { useQuery } from '@tanstack/react-query';
import type { CatalogCard } from '@hpc/contracts';
import type { PageOf } from '@hpc/api-client';
import { CatalogListView, type CatalogKind } from './catalog-list-view';
import { idCatalogListBody, type IdCatalogQueries } from './id-catalog.queries';
import { useKeywordFromSession } from './use-keyword-from-session';
import { useListState } from './use-list-state';

export interface IdCatalogListPageProps<T extends CatalogCard, Detail> {
  kind: Exclude<CatalogKind, 'images'>;
  queries: IdCatalogQueries<PageOf<T>, Detail>;
  detailPath: (item: T) => string;
}

/** The list page of a catalogue of numbered entries (the model zoo, the application centre): filters from the address. */
export function IdCatalogListPage<T extends CatalogCard, Detail>(props: IdCatalogListPageProps<T, Detail>) {
  const { kind, queries } = props;
  const { state, update } = useListState();
  useKeywordFromSession(kind, state.keyword, update);
  const list = useQuery(queries.list(idCatalogListBody(state)));
  const labels = useQuery(queries.labels());
  const categories = useQuery(queries.categories());
  return (
    <CatalogListView
      kind={kind}
      state={state}
      update={update}
      page={list.data}
      loading={list.isFetching}
      categories={categories.data ?? []}
      labelGroups={labels.data}
      detailPath={props.detailPath}
    />
  );
}
