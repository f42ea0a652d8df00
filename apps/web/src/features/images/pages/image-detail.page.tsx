import { Card, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api } from '../../../shared/api/client';
import { CatalogDetailView, CatalogInfoCard } from '../../../shared/catalog/catalog-detail-view';
import { pick } from '../../../shared/i18n/languages';
import { CopyCommand } from '../../../shared/ui/copy-command';
import { MarkdownViewer } from '../../../shared/ui/markdown/markdown-viewer';
import { TipBanner } from '../../../shared/ui/tip-banner';
import { imageQueries } from '../api/images.queries';

/** /image/:acceleratorType/:imageName (spec §2). */
export default function ImageDetailPage() {
  const { t, i18n } = useTranslation();
  const { acceleratorType = '', imageName = '' } = useParams();
  const detail = useQuery(imageQueries.detail(acceleratorType, imageName));
  const accelerators = useQuery(imageQueries.acceleratorTypes());
  const categories = useQuery(imageQueries.categories(''));
  const item = detail.data;
  const lang = i18n.language;
  const accel = accelerators.data?.find((a) => a.value === item?.acceleratorType);
  const category = categories.data?.find((c) => c.value === item?.category);
  const accelName = accel ? pick(lang, accel.label, accel.labelEn) : (item?.acceleratorType ?? '');
  const categoryName = category ? pick(lang, category.label, category.labelEn) : (item?.category ?? '');
  const descFilePath = item?.descFilePath ?? null;

  return (
    <CatalogDetailView
      kind="images"
      listPath="/service-list"
      item={item}
      loading={detail.isLoading}
      badges={
        item && (
          <Tag className="hpc-accel-tag" bordered={false} data-accel={item.acceleratorType}>
            {accelName}
          </Tag>
        )
      }
      tip={<TipBanner>{t('images.detail.tip')}</TipBanner>}
      aside={
        item && (
          <>
            <Card title={t('images.detail.pull')} variant="borderless">
              <CopyCommand command={item.pullCommand} />
            </Card>
            <CatalogInfoCard
              items={[
                { key: 'name', label: t('images.detail.imageName'), children: item.imageName },
                { key: 'accel', label: t('catalog.filter.acceleratorType'), children: accelName },
                { key: 'category', label: t('catalog.filter.category'), children: categoryName },
              ]}
            />
          </>
        )
      }
    >
      <MarkdownViewer
        queryKey={['images', 'description', descFilePath]}
        load={descFilePath ? (signal) => api.images.fileView(descFilePath, { signal }) : null}
      />
    </CatalogDetailView>
  );
}
