import { Card, Skeleton, Tabs } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../../../shared/api/client';
import { CatalogDetailView, CatalogInfoCard } from '../../../shared/catalog/catalog-detail-view';
import { pick } from '../../../shared/i18n/languages';
import { CopyCommand } from '../../../shared/ui/copy-command';
import { MarkdownViewer } from '../../../shared/ui/markdown/markdown-viewer';
import { TipBanner } from '../../../shared/ui/tip-banner';
import { modelQueries } from '../api/models.queries';
import { modelFileUrl } from '../api/model-file-url';
import { modelUsage } from '../components/model-usage';
import { ModelFiles } from '../components/model-files';
import '../models.css';

/** READMEs above this are not rendered in the page (the description is shown instead); the file stays downloadable. */
const README_MAX_BYTES = 2 * 1024 * 1024;

/** /model-zoo/:id (spec §2). */
export default function ModelDetailPage() {
  const { t, i18n } = useTranslation();
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const detail = useQuery(modelQueries.detail(id));
  const categories = useQuery(modelQueries.categories()).data;
  const item = detail.data;
  const filePath = item?.filePath ?? null;
  const category = categories?.find((c) => c.value === item?.category);
  // The model card is the README of the model's files when it has one (as on Hugging Face), else its description.
  const files = useQuery({
    queryKey: ['models', 'files', id],
    queryFn: ({ signal }) => api.models.files(id, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
  const readme = files.data?.files.find((f) => /^readme\.md$/i.test(f.path) && f.size <= README_MAX_BYTES);
  const loadReadme = readme
    ? (signal: AbortSignal) =>
        fetch(modelFileUrl(id, readme.path), { signal }).then((r) =>
          r.ok ? r.text() : Promise.reject(new Error(`README: HTTP ${r.status}`)),
        )
    : null;
  // The open tab is in the address (?tab=files), so a link can point at a model's files.
  // A model without files has no Files tab (issue 25 §3.9); while its files load, a link to them waits on the tab.
  const [params, setParams] = useSearchParams();
  const hasFiles = (files.data?.files.length ?? 0) > 0;
  const filesTab = hasFiles || (files.isLoading && params.get('tab') === 'files');
  const tab = filesTab && params.get('tab') === 'files' ? 'files' : 'readme';

  // Spec §7: the count call tolerates any answer, so its failures are not shown.
  const count = useMutation({
    mutationFn: () => api.models.count(id),
    meta: { silent: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['models', 'detail', id] }),
  });

  return (
    <CatalogDetailView
      kind="models"
      listPath="/model-zoo/list"
      item={Number.isInteger(id) ? item : undefined}
      loading={detail.isLoading}
      tip={<TipBanner>{t('models.detail.tip')}</TipBanner>}
      aside={
        item && (
          <>
            <Card title={t('models.detail.usage')} variant="borderless">
              <CopyCommand command={modelUsage(item)} onCopy={() => count.mutate()} />
            </Card>
            <CatalogInfoCard
              items={[
                { key: 'id', label: t('models.detail.id'), children: item.id },
                {
                  key: 'category',
                  label: t('catalog.filter.category'),
                  children: category ? pick(i18n.language, category.label, category.labelEn) : item.category,
                },
                { key: 'version', label: t('catalog.detail.version'), children: item.tag || '-' },
              ]}
            />
          </>
        )
      }
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'files' ? { tab: 'files' } : {}, { replace: true })}
        items={[
          {
            key: 'readme',
            label: t('models.tabs.readme'),
            children: files.isLoading ? (
              <Skeleton active paragraph={{ rows: 8 }} />
            ) : loadReadme ? (
              <MarkdownViewer queryKey={['models', 'readme', id, readme?.sha256]} load={loadReadme} />
            ) : (
              <MarkdownViewer
                queryKey={['models', 'description', filePath]}
                load={filePath ? (signal) => api.models.fileView(filePath, { signal }) : null}
              />
            ),
          },
          ...(filesTab
            ? [
                {
                  key: 'files',
                  label: t('models.tabs.files'),
                  children: item && <ModelFiles modelId={item.id} modelName={item.nameEn || item.name} />,
                },
              ]
            : []),
        ]}
      />
    </CatalogDetailView>
  );
}
