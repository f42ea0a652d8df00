import { IdCatalogListPage } from '../../../shared/catalog/id-catalog-list-page';
import { modelPath } from '../../../shared/catalog/catalog-paths';
import { modelQueries } from '../api/models.queries';

/** /model-zoo/list: the model repository (spec §2). */
export default function ModelListPage() {
  return <IdCatalogListPage kind="models" queries={modelQueries} detailPath={(m) => modelPath(m.id)} />;
}
