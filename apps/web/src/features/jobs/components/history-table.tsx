import { useState } from 'react';
import { DatePicker, Select, Table, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { type JobHistoryEntry } from '@hpc/contracts';
import type { JobsApi } from '../api/jobs.api';
import { useTablePage } from '../hooks/use-table-page';
import { FINISHED_STATES, formatDuration, formatTime } from '../lib/job-format';
import { ScrollRegion } from '../../../shared/ui/scroll-region';
import { leadingJobColumns } from './job-columns';

/** Finished jobs from accounting (issue 22 §3): time range, state and account filters, the spec's page sizes. */
export function HistoryTable({
  api,
  accounts,
  onDetail,
}: {
  api: JobsApi;
  accounts: string[];
  onDetail: (jobId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().subtract(7, 'day').startOf('day'),
    dayjs().endOf('day'),
  ]);
  const [state, setState] = useState<string | undefined>();
  const [account, setAccount] = useState<string | undefined>();
  const { page, reset, pagination } = useTablePage();
  const q = {
    start: range[0].valueOf(),
    end: range[1].valueOf(),
    ...(state ? { state } : {}),
    ...(account ? { account } : {}),
    ...page,
  };
  const history = useQuery({
    queryKey: ['jobs', api.clusterId, 'history', q],
    queryFn: ({ signal }) => api.history({ query: q }, { signal }),
    placeholderData: keepPreviousData,
  });
  const columns: TableColumnsType<JobHistoryEntry> = [
    ...leadingJobColumns<JobHistoryEntry>(t, onDetail, 'history-link'),
    { title: t('jobs.col.exit'), dataIndex: 'exitCode' },
    { title: t('jobs.col.account'), dataIndex: 'account' },
    { title: t('jobs.col.partition'), dataIndex: 'partition' },
    { title: t('jobs.col.elapsed'), dataIndex: 'elapsedSeconds', render: (s: number) => formatDuration(s) },
    {
      title: t('jobs.col.end'),
      dataIndex: 'endTime',
      render: (v: number | null) => formatTime(v, i18n.language),
    },
  ];
  return (
    <div data-testid="jobs-history">
      <div className="hpc-jobs-toolbar">
        <DatePicker.RangePicker
          aria-label={t('jobs.filter.range')}
          value={range}
          allowClear={false}
          onChange={(v) => {
            if (v?.[0] && v[1]) setRange([v[0].startOf('day'), v[1].endOf('day')]);
            reset();
          }}
        />
        <Select
          aria-label={t('jobs.filter.state')}
          className="hpc-jobs-filter"
          allowClear
          placeholder={t('jobs.filter.anyState')}
          value={state}
          onChange={(v?: string) => {
            setState(v);
            reset();
          }}
          options={FINISHED_STATES.map((s) => ({
            value: s,
            label: t(`jobs.states.${s}`, { defaultValue: s }),
          }))}
        />
        <Select
          aria-label={t('jobs.filter.account')}
          className="hpc-jobs-filter"
          allowClear
          placeholder={t('jobs.filter.anyAccount')}
          value={account}
          onChange={(v?: string) => {
            setAccount(v);
            reset();
          }}
          options={accounts.map((a) => ({ value: a, label: a }))}
        />
      </div>
      <ScrollRegion label={t('jobs.tabs.history')}>
        <Table<JobHistoryEntry>
          rowKey="jobId"
          size="middle"
          columns={columns}
          dataSource={history.data?.list ?? []}
          loading={history.isFetching}
          locale={{ emptyText: t('jobs.empty.history') }}
          pagination={pagination(history.data?.total ?? 0)}
        />
      </ScrollRegion>
    </div>
  );
}
