import { useEffect, useRef, useState } from 'react';
import { Alert, Descriptions, Drawer, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { JobDetailData } from '@hpc/api-client';
import { errorMessage } from '../../../shared/api/error-message';
import type { JobsApi } from '../api/jobs.api';
import { useNow } from '../hooks/use-now';
import { NONE } from '../../../shared/utils/format';
import { elapsedNow, folderOf, formatDuration, formatTime, isActive } from '../lib/job-format';
import { JobStateTag, useReasonText } from './job-state-tag';

/** Keeps at most this much of a live tail in the page. */
const TAIL_KEEP = 256 * 1024;

/** An E-File link to a folder, or to a file's folder with the file selected. */
function EfileLink({ clusterId, path, file = false }: { clusterId: string; path: string; file?: boolean }) {
  const { t } = useTranslation();
  const folder = file ? folderOf(path) : path;
  const to = `/efile?${new URLSearchParams({ cluster: clusterId, path: folder }).toString()}`;
  return (
    <span className="hpc-jobs-path">
      <Typography.Text code copyable>
        {path}
      </Typography.Text>{' '}
      <Link to={to}>{t('jobs.detail.openInEfile')}</Link>
    </span>
  );
}

/** A running job's elapsed time, counted on every second between two readings of the detail (they are 5 s apart). */
function Elapsed({ job, fetchedAt }: { job: JobDetailData; fetchedAt: number }) {
  return (
    <span data-testid="job-elapsed">
      {formatDuration(elapsedNow(job, fetchedAt, useNow(job.state === 'RUNNING')))}
    </span>
  );
}

/** A live tail of a job's stdout: asks again from where it stopped while the job runs (issue 22 §3). */
function OutputTail({ api, job }: { api: JobsApi; job: JobDetailData }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const next = useRef<number | null>(null);
  const box = useRef<HTMLPreElement>(null);
  const live = isActive(job.state);
  const tail = useQuery({
    queryKey: ['jobs', api.clusterId, 'tail', job.jobId],
    queryFn: async ({ signal }) => {
      const q = {
        jobId: job.jobId,
        stream: 'stdout' as const,
        ...(next.current !== null ? { offset: next.current } : {}),
      };
      return api.output({ query: q }, { signal });
    },
    refetchInterval: live ? 2_000 : false,
    gcTime: 0,
  });
  useEffect(() => {
    const out = tail.data;
    if (!out) return;
    setMissing(out.missing);
    if (out.missing) return;
    // The first answer is the file's last piece; later ones continue from where the previous stopped.
    setText((prev) =>
      (next.current === null || out.from < (next.current ?? 0) ? out.text : prev + out.text).slice(
        -TAIL_KEEP,
      ),
    );
    next.current = out.next;
  }, [tail.data]);
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [text]);
  return (
    <div>
      <Typography.Title level={5}>{t(live ? 'jobs.detail.tail' : 'jobs.detail.tailDone')}</Typography.Title>
      {tail.error ? <Alert type="warning" showIcon title={errorMessage(tail.error, t) ?? ''} /> : null}
      <pre
        className="hpc-jobs-tail"
        ref={box}
        tabIndex={0}
        aria-label={t(live ? 'jobs.detail.tail' : 'jobs.detail.tailDone')}
        data-testid="job-tail"
      >
        {missing ? t('jobs.detail.tailMissing') : text || t('jobs.detail.tailEmpty')}
      </pre>
    </div>
  );
}

/** Every field of a job (issue 22 §3), links into E-File, and the live tail of its output. */
export function JobDetailDrawer({
  api,
  jobId,
  onClose,
}: {
  api: JobsApi;
  jobId: string | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const reasonText = useReasonText();
  const detail = useQuery({
    queryKey: ['jobs', api.clusterId, 'detail', jobId],
    queryFn: ({ signal }) => api.detail({ query: { jobId: jobId! } }, { signal }),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.state) ? 5_000 : false),
  });
  const j = detail.data;
  const mem = j && j.requested.memoryMb > 0 ? `${j.requested.memoryMb} MB` : t('jobs.detail.memDefault');
  return (
    <Drawer
      open={jobId !== null}
      onClose={onClose}
      size="large"
      title={jobId ? t('jobs.detail.title', { jobId }) : ''}
      // Ant Design's drawer does not name its dialog after its title (axe aria-dialog-name).
      aria-label={jobId ? t('jobs.detail.title', { jobId }) : undefined}
      destroyOnHidden
      data-testid="job-detail"
    >
      {detail.error ? <Alert type="error" showIcon title={errorMessage(detail.error, t) ?? ''} /> : null}
      {!j && !detail.error ? <Skeleton active /> : null}
      {j ? (
        <>
          {j.source === 'accounting' ? (
            <Alert type="info" showIcon title={t('jobs.detail.source.accounting')} />
          ) : null}
          <Descriptions column={1} size="small" bordered className="hpc-jobs-detail">
            <Descriptions.Item label={t('jobs.col.name')}>{j.name}</Descriptions.Item>
            <Descriptions.Item label={t('jobs.col.state')}>
              <JobStateTag state={j.state} />
            </Descriptions.Item>
            {j.state === 'PENDING' ? (
              <Descriptions.Item label={t('jobs.detail.reason')}>{reasonText(j.reason)}</Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('jobs.detail.user')}>{j.user}</Descriptions.Item>
            <Descriptions.Item label={t('jobs.col.account')}>{j.account}</Descriptions.Item>
            <Descriptions.Item label={t('jobs.col.partition')}>{j.partition}</Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.qos')}>{j.qos}</Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.submit')}>
              {formatTime(j.submitTime, i18n.language)}
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.start')}>
              {formatTime(j.startTime, i18n.language) || NONE}
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.end')}>
              {formatTime(j.endTime, i18n.language) || NONE}
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.elapsed')}>
              <Elapsed job={j} fetchedAt={detail.dataUpdatedAt} />
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.nodeList')}>{j.nodeList || NONE}</Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.exit')}>
              {/* Slurm says 0:0 until the job ends: not an exit code yet. */}
              {isActive(j.state) ? NONE : j.exitCode}
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.requested')}>
              {t('jobs.detail.requestedText', {
                nodes: t('jobs.detail.nodes', { count: j.requested.nodes }),
                tasks: t('jobs.detail.tasks', { count: j.requested.tasks }),
                cpus: t('jobs.detail.cpus', { count: j.requested.cpusPerTask }),
                gpus: t('jobs.detail.gpus', { count: j.requested.gpus }),
                mem,
                time:
                  j.requested.timeLimitMinutes === null
                    ? t('jobs.form.unlimited')
                    : formatDuration(j.requested.timeLimitMinutes * 60),
              })}
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.workDir')}>
              <EfileLink clusterId={api.clusterId} path={j.workDir} />
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.stdout')}>
              <EfileLink clusterId={api.clusterId} path={j.stdout} file />
            </Descriptions.Item>
            <Descriptions.Item label={t('jobs.detail.stderr')}>
              <EfileLink clusterId={api.clusterId} path={j.stderr} file />
            </Descriptions.Item>
          </Descriptions>
          <OutputTail api={api} job={j} />
        </>
      ) : null}
    </Drawer>
  );
}
