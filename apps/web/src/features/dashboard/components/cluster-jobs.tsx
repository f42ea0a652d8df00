import { Button, Progress, Skeleton, Space, Statistic, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Partition } from '@hpc/contracts';
import type { JobOverviewData } from '@hpc/api-client';
import { errorMessage } from '../../../shared/api/error-message';
import { NONE } from '../../../shared/utils/format';
import { JobStateTag, NoScheduler, QueueStatusLine, useJobsClient } from '../../jobs';
import { Widget, WidgetError } from './widget';

/**
 * One cluster's job widgets (issue 22 §4), from its job service's overview call (the poller's reading, never a
 * scheduler command): my running and pending jobs with the latest few, and the partitions' nodes, CPUs and GPUs.
 * A centre without a scheduler (or whose job service does not answer) says so once, in one card: two cards that
 * both said "no scheduler" were one fact twice. A service that fails shows its error here only.
 */
export function ClusterJobs({ clusterId, center }: { clusterId: string; center: string }) {
  const { t } = useTranslation();
  const { api, state } = useJobsClient(clusterId);
  const overview = useQuery({
    queryKey: ['jobs', clusterId, 'overview'],
    queryFn: ({ signal }) => api!.overview(undefined, { signal }),
    enabled: api !== null,
    refetchInterval: 10_000,
  });
  const jobsTitle = t('dashboard.jobs.title', { center });
  const partsTitle = t('dashboard.partitions.title', { center });
  if (state === 'none' || state === 'unreachable')
    return (
      <Widget testId={`dash-jobs-${clusterId}`} title={jobsTitle}>
        <NoScheduler state={state} center={center} compact />
      </Widget>
    );
  const body = (what: 'jobs' | 'parts') => {
    if (overview.error)
      return (
        <WidgetError
          message={errorMessage(overview.error, t) ?? ''}
          onRetry={() => void overview.refetch()}
        />
      );
    if (!overview.data) return <Skeleton active paragraph={{ rows: 2 }} />;
    return what === 'jobs' ? (
      <MyJobs clusterId={clusterId} data={overview.data} />
    ) : (
      <Partitions list={overview.data.partitions} />
    );
  };
  return (
    <>
      <Widget testId={`dash-jobs-${clusterId}`} title={jobsTitle}>
        {body('jobs')}
      </Widget>
      <Widget testId={`dash-partitions-${clusterId}`} title={partsTitle}>
        {body('parts')}
      </Widget>
    </>
  );
}

function MyJobs({ clusterId, data }: { clusterId: string; data: JobOverviewData }) {
  const { t } = useTranslation();
  return (
    <div className="hpc-dash-stack">
      <Space size="large">
        <Link to={`/jobs?cluster=${clusterId}&tab=active`}>
          <Statistic title={t('dashboard.jobs.running')} value={data.counts.running} />
        </Link>
        <Link to={`/jobs?cluster=${clusterId}&tab=active`}>
          <Statistic title={t('dashboard.jobs.pending')} value={data.counts.pending} />
        </Link>
      </Space>
      {data.status.error ? <QueueStatusLine status={data.status} /> : null}
      <Typography.Text strong>{t('dashboard.jobs.recent')}</Typography.Text>
      {data.recent.length === 0 ? (
        <span className="hpc-dash-muted">{t('dashboard.jobs.none')}</span>
      ) : (
        <ul className="hpc-dash-list">
          {data.recent.map((j) => (
            <li key={j.jobId}>
              <Link to={`/jobs?cluster=${clusterId}&job=${j.jobId}`}>
                {j.jobId} {j.name}
              </Link>{' '}
              <JobStateTag state={j.state} />
            </li>
          ))}
        </ul>
      )}
      <Space>
        <Link to={`/jobs?cluster=${clusterId}&tab=active`}>{t('dashboard.jobs.all')}</Link>
        <Link to={`/jobs?cluster=${clusterId}&tab=submit`}>
          <Button size="small" type="primary" tabIndex={-1}>
            {t('dashboard.jobs.submit')}
          </Button>
        </Link>
      </Space>
    </div>
  );
}

/**
 * The cluster's partitions in a card a third of the page wide: short headers that never break inside a word (状态
 * stood as 状 over 态), the nodes' three counts named under their header, the CPU bar wide enough to read.
 */
function Partitions({ list }: { list: Partition[] }) {
  const { t } = useTranslation();
  const pct = (used: number, total: number) => (total > 0 ? Math.round((used / total) * 100) : 0);
  return (
    <Table<Partition>
      rowKey="name"
      size="small"
      pagination={false}
      dataSource={list}
      className="hpc-dash-partitions"
      locale={{ emptyText: t('dashboard.partitions.none') }}
      columns={[
        { title: t('dashboard.partitions.partition'), dataIndex: 'name' },
        { title: t('dashboard.partitions.state'), dataIndex: 'state' },
        {
          title: (
            <>
              {t('dashboard.partitions.nodes')}
              <div className="hpc-dash-th-hint">{t('dashboard.partitions.nodesHint')}</div>
            </>
          ),
          key: 'nodes',
          render: (_, p) => `${p.nodes.idle} / ${p.nodes.allocated} / ${p.nodes.down}`,
        },
        {
          title: t('dashboard.partitions.cpus'),
          key: 'cpus',
          render: (_, p) => (
            <Progress
              aria-label={t('dashboard.partitions.cpusOf', { partition: p.name })}
              percent={pct(p.cpus.allocated, p.cpus.total)}
              size="small"
              format={() => `${p.cpus.allocated}/${p.cpus.total}`}
            />
          ),
        },
        {
          title: t('dashboard.partitions.gpus'),
          key: 'gpus',
          render: (_, p) => (p.gpus.total > 0 ? `${p.gpus.allocated}/${p.gpus.total}` : NONE),
        },
      ]}
    />
  );
}
