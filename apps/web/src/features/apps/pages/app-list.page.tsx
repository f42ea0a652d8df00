import { IdCatalogListPage } from '../../../shared/catalog/id-catalog-list-page';
import { appPath } from '../../../shared/catalog/catalog-paths';
import { appQueries } from '../api/apps.queries';

/** /full-site-list: the application centre, also the target of the site-wide header search (spec §2). */
export default function AppListPage() {
  return <IdCatalogListPage kind="apps" queries={appQueries} detailPath={(a) => appPath(a.id)} />;
}
