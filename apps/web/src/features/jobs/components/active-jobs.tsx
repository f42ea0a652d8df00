import { useState } from 'react';
import { App, Button, Segmented, Space, Table, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type JobListState, type JobSummary } from '@hpc/contracts';
import type { JobAction } from '@hpc/api-client';
import { notifyError } from '../../../shared/api/notify';
import type { JobsApi } from '../api/jobs.api';
import { useNow } from '../hooks/use-now';
import { useTablePage } from '../hooks/use-table-page';
import { elapsedNow, formatDuration, formatTime, secondsLeft } from '../lib/job-format';
import { useReasonText } from './job-state-tag';
import { QueueStatusLine } from './queue-status';
import { ScrollRegion } from '../../../shared/ui/scroll-region';
import { leadingJobColumns } from './job-columns';

/** The list refreshes itself this often: the service answers from its poller's reading, so it costs Slurm nothing. */
export const REFRESH_MS = 3_000;

export const jobListKey = (clusterId: string) => ['jobs', clusterId, 'list'] as const;

/** Cancel, hold and release several jobs at once, with each job's own outcome reported. */
export function useJobActions(api: JobsApi) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ action, ids }: { action: JobAction; ids: string[] }) => api.act(action, ids),
    onSuccess: ({ results }, { action }) => {
      const ok = results.filter((r) => r.ok).length;
      if (ok > 0) void message.success(t('jobs.actions.done', { action: t(`jobs.actions.${action}`), ok }));
      for (const r of results.filter((x) => !x.ok))
        void message.warning(
          t('jobs.actions.failed', { jobId: r.jobId, msg: t(`errors.${r.code}`, { defaultValue: r.msg }) }),
        );
      void qc.invalidateQueries({ queryKey: ['jobs', api.clusterId] });
    },
    onError: notifyError,
  });
}

/** Running and pending jobs (issue 22 §3): refreshes itself, several jobs at once, cancel after a confirmation. */
export function ActiveJobs({ api, onDetail }: { api: JobsApi; onDetail: (jobId: string) => void }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const reasonText = useReasonText();
  const now = useNow();
  const [state, setState] = useState<JobListState>('all');
  const { page, reset, pagination } = useTablePage();
  const [selected, setSelected] = useState<string[]>([]);
  const list = useQuery({
    queryKey: [...jobListKey(api.clusterId), state, page.pageNum, page.pageSize],
    queryFn: ({ signal }) => api.list({ query: { state, ...page } }, { signal }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const act = useJobActions(api);
  const run = (action: JobAction) =>
    act.mutate({ action, ids: selected }, { onSuccess: () => setSelected([]) });
  const confirmCancel = () =>
    modal.confirm({
      title: t('jobs.actions.confirmCancel', { count: selected.length }),
      content: t('jobs.actions.confirmCancelText'),
      okText: t('jobs.actions.confirm'),
      cancelText: t('jobs.actions.back'),
      okButtonProps: { danger: true },
      onOk: () => run('cancel'),
    });

  const fetchedAt = list.dataUpdatedAt;
  const columns: TableColumnsType<JobSummary> = [
    ...leadingJobColumns<JobSummary>(t, onDetail, 'job-link'),
    {
      title: t('jobs.col.reason'),
      dataIndex: 'reason',
      render: (r: string, j) => (j.state === 'PENDING' ? reasonText(r) : ''),
    },
    { title: t('jobs.col.partition'), dataIndex: 'partition' },
    {
      title: t('jobs.col.elapsed'),
      key: 'elapsed',
      render: (_, j) => formatDuration(elapsedNow(j, fetchedAt, now)),
    },
    {
      title: t('jobs.col.left'),
      key: 'left',
      render: (_, j) => {
        const left = secondsLeft({ ...j, elapsedSeconds: elapsedNow(j, fetchedAt, now) });
        return left === null ? '' : formatDuration(left);
      },
    },
    { title: t('jobs.col.nodes'), key: 'nodes', render: (_, j) => j.nodeList || j.nodes },
    {
      title: t('jobs.col.submit'),
      dataIndex: 'submitTime',
      render: (v: number | null) => formatTime(v, i18n.language),
    },
  ];

  const counts = list.data?.counts;
  return (
    <div className="hpc-jobs-active" data-testid="jobs-active">
      <div className="hpc-jobs-toolbar">
        <Segmented<JobListState>
          value={state}
          onChange={(v) => {
            setState(v);
            reset();
          }}
          options={[
            { value: 'all', label: t('jobs.filter.all') },
            { value: 'running', label: t('jobs.filter.running') },
            { value: 'pending', label: t('jobs.filter.pending') },
          ]}
        />
        {counts ? (
          <Typography.Text data-testid="jobs-counts">{t('jobs.counts', counts)}</Typography.Text>
        ) : null}
        <Space wrap>
          {selected.length > 0 ? (
            <Typography.Text type="secondary">
              {t('jobs.actions.selected', { count: selected.length })}
            </Typography.Text>
          ) : null}
          <Button
            danger
            disabled={selected.length === 0}
            loading={act.isPending}
            onClick={confirmCancel}
            data-testid="jobs-cancel"
          >
            {t('jobs.actions.cancel')}
          </Button>
          <Button
            disabled={selected.length === 0}
            loading={act.isPending}
            onClick={() => run('hold')}
            data-testid="jobs-hold"
          >
            {t('jobs.actions.hold')}
          </Button>
          <Button
            disabled={selected.length === 0}
            loading={act.isPending}
            onClick={() => run('release')}
            data-testid="jobs-release"
          >
            {t('jobs.actions.release')}
          </Button>
        </Space>
      </div>
      <QueueStatusLine status={list.data?.status} />
      <ScrollRegion label={t('jobs.tabs.active')}>
        <Table<JobSummary>
          rowKey="jobId"
          size="middle"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isLoading}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          locale={{ emptyText: t('jobs.empty.active') }}
          pagination={pagination(list.data?.total ?? 0)}
        />
      </ScrollRegion>
    </div>
  );
}
