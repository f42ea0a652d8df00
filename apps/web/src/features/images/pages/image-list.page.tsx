import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CatalogListView } from '../../../shared/catalog/catalog-list-view';
import { useListState } from '../../../shared/catalog/use-list-state';
import { useKeywordFromSession } from '../../../shared/catalog/use-keyword-from-session';
import { pick } from '../../../shared/i18n/languages';
import { imageListBody, imagePath, imageQueries } from '../api/images.queries';

/** /service-list: the image centre (spec §2). */
export default function ImageListPage() {
  const { i18n } = useTranslation();
  const { state, update } = useListState();
  useKeywordFromSession('images', state.keyword, update);
  const list = useQuery(imageQueries.list(imageListBody(state)));
  const accelerators = useQuery(imageQueries.acceleratorTypes());
  const labels = useQuery(imageQueries.labels(state.acceleratorType));
  const categories = useQuery(imageQueries.categories(state.acceleratorType));
  const accName = (v: string) => {
    const a = accelerators.data?.find((x) => x.value === v);
    return a ? pick(i18n.language, a.label, a.labelEn) : v;
  };

  return (
    <CatalogListView
      kind="images"
      state={state}
      update={update}
      page={list.data}
      loading={list.isFetching}
      accelerators={accelerators.data ?? []}
      categories={categories.data ?? []}
      labelGroups={labels.data}
      detailPath={(i) => imagePath(i.acceleratorType, i.imageName)}
      badges={(i) => (
        <Tag className="hpc-accel-tag" bordered={false} data-accel={i.acceleratorType}>
          {accName(i.acceleratorType)}
        </Tag>
      )}
    />
  );
}
