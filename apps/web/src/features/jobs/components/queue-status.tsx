import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QueueStatus } from '@hpc/contracts';
import { NONE } from '../../../shared/utils/format';
import { formatTime } from '../lib/job-format';

/**
 * How fresh the lists are: when the poller last read the scheduler, and, while the scheduler does not answer, that
 * outage (the lists then show the last reading and recover by themselves).
 */
export function QueueStatusLine({ status }: { status: QueueStatus | undefined }) {
  const { t, i18n } = useTranslation();
  if (!status) return null;
  if (status.error)
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="jobs-outage"
        title={t('jobs.outage', {
          since: formatTime(status.downSince, i18n.language),
          at: formatTime(status.updatedAt, i18n.language) || NONE,
        })}
      />
    );
  return (
    <Typography.Text type="secondary" data-testid="jobs-updated">
      {t('jobs.updatedAt', { at: formatTime(status.updatedAt, i18n.language) })}
    </Typography.Text>
  );
}
