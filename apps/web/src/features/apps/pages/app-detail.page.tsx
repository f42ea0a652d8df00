import { ExportOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../../shared/api/client';
import { CatalogDetailView } from '../../../shared/catalog/catalog-detail-view';
import { MarkdownViewer } from '../../../shared/ui/markdown/markdown-viewer';
import { appQueries } from '../api/apps.queries';

/** /full-site/:id: one application of the application centre. */
export default function AppDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useQuery(appQueries.detail(id));
  const item = detail.data;
  const filePath = item?.filePath ?? null;
  const url = item?.url ?? null;
  const external = url !== null && /^[a-z]+:\/\//i.test(url);

  return (
    <CatalogDetailView
      kind="apps"
      listPath="/full-site-list"
      item={item}
      loading={detail.isLoading}
      aside={
        url && (
          <Card title={t('apps.detail.launch')} variant="borderless">
            <p className="hpc-muted">{t('apps.detail.launchHint')}</p>
            {external ? (
              <Button
                type="primary"
                block
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                icon={<ExportOutlined />}
              >
                {t('apps.detail.open')}
              </Button>
            ) : (
              <Button type="primary" block onClick={() => void navigate(url)}>
                {t('apps.detail.open')}
              </Button>
            )}
          </Card>
        )
      }
    >
      <MarkdownViewer
        queryKey={['apps', 'description', filePath]}
        load={filePath ? (signal) => api.apps.fileView(filePath, { signal }) : null}
      />
    </CatalogDetailView>
  );
}
