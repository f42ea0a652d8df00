import { useMemo } from 'react';
import { Progress, Skeleton, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../shared/api/error-message';
import { useClusterService } from '../../clusters';
import { createEfileApi } from '../../efile';
import { formatSize } from '../../../shared/utils/format-size';
import { formatTime } from '../../jobs';
import { Widget, WidgetError } from './widget';

/**
 * My storage and recent files of one cluster (issue 22 §4): efile's usage call answers from the count its worker
 * made as the user in the background, never counting on this request; while the first count runs it says so and
 * asks again shortly.
 */
export function StorageWidgets({ clusterId, center }: { clusterId: string; center: string }) {
  const { t, i18n } = useTranslation();
  const service = useClusterService(clusterId, 'efile');
  const api = useMemo(
    () => (service.url ? createEfileApi(clusterId, service.url) : null),
    [clusterId, service.url],
  );
  const usage = useQuery({
    queryKey: ['dashboard', 'usage', clusterId],
    queryFn: ({ signal }) => api!.usage(signal),
    enabled: api !== null,
    refetchInterval: (q) => (q.state.data?.counting || q.state.data?.countedAt === null ? 3_000 : 60_000),
  });
  const failed = service.error ?? usage.error;
  const fail = failed ? (
    <WidgetError message={errorMessage(failed, t) ?? String(failed)} onRetry={() => void usage.refetch()} />
  ) : null;
  const u = usage.data;
  const efileLink = (path: string) =>
    `/efile?${new URLSearchParams({ cluster: clusterId, path }).toString()}`;
  return (
    <>
      <Widget testId={`dash-storage-${clusterId}`} title={t('dashboard.storage.title', { center })}>
        {fail ??
          (!u ? (
            <Skeleton active paragraph={{ rows: 1 }} />
          ) : u.countedAt === null ? (
            <span className="hpc-dash-muted">{t('dashboard.storage.counting')}</span>
          ) : (
            <Space direction="vertical" className="hpc-dash-full">
              <Typography.Text>
                {t('dashboard.storage.usedLead')}
                <strong data-testid="dash-storage-used">{formatSize(u.usedBytes)}</strong>
                {t('dashboard.storage.files', { count: u.files })}
              </Typography.Text>
              {u.quotaBytes ? (
                <Progress
                  aria-label={t('dashboard.storage.used')}
                  percent={Math.min(100, Math.round((u.usedBytes / u.quotaBytes) * 100))}
                  format={() => t('dashboard.storage.quota', { quota: formatSize(u.quotaBytes!) })}
                />
              ) : (
                <Typography.Text type="secondary">{t('dashboard.storage.noQuota')}</Typography.Text>
              )}
              <Typography.Text type="secondary">
                {t('dashboard.storage.fs', {
                  free: formatSize(u.fsFreeBytes),
                  total: formatSize(u.fsTotalBytes),
                })}
              </Typography.Text>
              {u.partial ? (
                <Typography.Text type="warning">{t('dashboard.storage.partial')}</Typography.Text>
              ) : null}
              <Typography.Text type="secondary">
                {t('dashboard.storage.at', { at: formatTime(u.countedAt, i18n.language) })}
              </Typography.Text>
            </Space>
          ))}
      </Widget>
      <Widget testId={`dash-recent-${clusterId}`} title={t('dashboard.recent.title', { center })}>
        {fail ??
          (!u ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : u.recent.length === 0 ? (
            <span className="hpc-dash-muted">
              {u.countedAt === null ? t('dashboard.storage.counting') : t('dashboard.recent.none')}
            </span>
          ) : (
            <ul className="hpc-dash-list">
              {u.recent.map((f) => (
                <li key={f.path}>
                  <Link
                    to={efileLink(f.path.replace(/\/[^/]*$/, '') || '/')}
                    aria-label={t('dashboard.recent.open', { name: f.name })}
                  >
                    {f.name}
                  </Link>{' '}
                  <Typography.Text type="secondary">
                    {formatSize(f.size)} · {formatTime(f.mtime, i18n.language)}
                  </Typography.Text>
                </li>
              ))}
            </ul>
          ))}
      </Widget>
    </>
  );
}
