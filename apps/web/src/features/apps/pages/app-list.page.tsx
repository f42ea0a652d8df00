import { useQuery } from '@tanstack/react-query';
import { CatalogListView } from '../../../shared/catalog/catalog-list-view';
import { appPath } from '../../../shared/catalog/catalog-paths';
import { useKeywordFromSession } from '../../../shared/catalog/use-keyword-from-session';
import { useListState } from '../../../shared/catalog/use-list-state';
import { appListBody, appQueries } from '../api/apps.queries';

/** /full-site-list: the application centre, also the target of the site-wide header search (spec §2). */
export default function AppListPage() {
  const { state, update } = useListState();
  useKeywordFromSession('apps', state.keyword, update);
  const list = useQuery(appQueries.list(appListBody(state)));
  const labels = useQuery(appQueries.labels());
  const categories = useQuery(appQueries.categories());
  return (
    <CatalogListView
      kind="apps"
      state={state}
      update={update}
      page={list.data}
      loading={list.isFetching}
      categories={categories.data ?? []}
      labelGroups={labels.data}
      detailPath={(a) => appPath(a.id)}
    />
  );
}
