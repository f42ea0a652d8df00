import { Button, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { JobStateTag } from './job-state-tag';

/**
 * The columns a job table starts with: the job's id (a link that opens its detail, test id `<linkTestId>-<id>`), its
 * name and its state.
 */
export function leadingJobColumns<T extends { jobId: string; name: string; state: string }>(
  t: TFunction,
  onDetail: (jobId: string) => void,
  linkTestId: string,
): TableColumnsType<T> {
  return [
    {
      title: t('jobs.col.jobId'),
      dataIndex: 'jobId',
      render: (id: string) => (
        <Button type="link" size="small" onClick={() => onDetail(id)} data-testid={`${linkTestId}-${id}`}>
          {id}
        </Button>
      ),
    },
    { title: t('jobs.col.name'), dataIndex: 'name', ellipsis: true },
    { title: t('jobs.col.state'), dataIndex: 'state', render: (s: string) => <JobStateTag state={s} /> },
  ];
}
