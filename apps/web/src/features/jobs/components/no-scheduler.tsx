import { Alert, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import type { JobServiceState } from '../hooks/use-jobs-client';

/**
 * What a page shows where jobs cannot be had: a centre without a scheduler for the portal (a plain, translated state,
 * never an error) or one whose job service does not answer (a warning).
 */
export function NoScheduler({
  state,
  center,
  compact = false,
}: {
  state: JobServiceState;
  center: string;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  if (state === 'unreachable')
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="jobs-unreachable"
        title={t('jobs.unreachable.title')}
        description={t('jobs.unreachable.text', { center })}
      />
    );
  return (
    <Empty
      data-testid="jobs-no-scheduler"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <strong>{t('jobs.none.title')}</strong>
          {compact ? null : <p className="hpc-jobs-muted">{t('jobs.none.text', { center })}</p>}
        </>
      }
    />
  );
}
