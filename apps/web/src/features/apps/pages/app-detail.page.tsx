import { ExportOutlined, ScheduleOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { WebPages, type AppJobTemplate } from '@hpc/contracts';
import { api } from '../../../shared/api/client';
import { CatalogDetailView } from '../../../shared/catalog/catalog-detail-view';
import { MarkdownViewer } from '../../../shared/ui/markdown/markdown-viewer';
import { appQueries } from '../api/apps.queries';

/** The Job page's form, opened with an application's ready job (the page reads it by the application's id). */
const runAppAddress = (id: number) =>
  `${WebPages.jobs}?${new URLSearchParams({ tab: 'submit', app: String(id) })}`;

/** "Run this application" (issue 22 §3): what its ready job asks for, and the way to the Job page's form. */
function RunAppCard({ id, job }: { id: number; job: AppJobTemplate }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card title={t('apps.detail.job')} variant="borderless" data-testid="app-run-card">
      <p className="hpc-muted">
        {t('apps.detail.jobHint', {
          nodes: job.nodes ?? 1,
          cpus: (job.tasks ?? 1) * (job.cpusPerTask ?? 1),
          gpus: job.gpus ?? 0,
          minutes: job.timeLimitMinutes ?? 60,
        })}
      </p>
      <Button
        type="primary"
        block
        icon={<ScheduleOutlined />}
        onClick={() => void navigate(runAppAddress(id))}
        data-testid="app-run"
      >
        {t('jobs.runApp')}
      </Button>
    </Card>
  );
}

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
        <>
          {item?.jobTemplate ? <RunAppCard id={item.id} job={item.jobTemplate} /> : null}
          {url && (
            <Card title={t('apps.detail.launch')} variant="borderless">
              <p className="hpc-muted">{t('apps.detail.launchHint')}</p>
              {external ? (
                <Button
                  type={item?.jobTemplate ? 'default' : 'primary'}
                  block
                  href={url}
                  target="_blank"
                  rel="noopener noreferrer"
                  icon={<ExportOutlined />}
                >
                  {t('apps.detail.open')}
                </Button>
              ) : (
                <Button
                  type={item?.jobTemplate ? 'default' : 'primary'}
                  block
                  onClick={() => void navigate(url)}
                >
                  {t('apps.detail.open')}
                </Button>
              )}
            </Card>
          )}
        </>
      }
    >
      <MarkdownViewer
        queryKey={['apps', 'description', filePath]}
        load={filePath ? (signal) => api.apps.fileView(filePath, { signal }) : null}
      />
    </CatalogDetailView>
  );
}
