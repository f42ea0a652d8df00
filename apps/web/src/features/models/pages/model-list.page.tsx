import { useQuery } from '@tanstack/react-query';
import { CatalogListView } from '../../../shared/catalog/catalog-list-view';
import { modelPath } from '../../../shared/catalog/catalog-paths';
import { useKeywordFromSession } from '../../../shared/catalog/use-keyword-from-session';
import { useListState } from '../../../shared/catalog/use-list-state';
import { modelListBody, modelQueries } from '../api/models.queries';

/** /model-zoo/list: the model repository (spec §2). */
export default function ModelListPage() {
  const { state, update } = useListState();
  useKeywordFromSession('models', state.keyword, update);
  const list = useQuery(modelQueries.list(modelListBody(state)));
  const labels = useQuery(modelQueries.labels());
  const categories = useQuery(modelQueries.categories());
  return (
    <CatalogListView
      kind="models"
      state={state}
      update={update}
      page={list.data}
      loading={list.isFetching}
      categories={categories.data ?? []}
      labelGroups={labels.data}
      detailPath={(m) => modelPath(m.id)}
    />
  );
}
