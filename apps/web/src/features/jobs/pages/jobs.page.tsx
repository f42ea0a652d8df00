import { useMemo } from 'react';
import { Alert, Result, Skeleton, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RequireSession } from '../../account';
import { accountDeactivated, ClusterSelect, useClusterService, useClusters } from '../../clusters';
import { appQueries } from '../../apps';
import { createEfileApi } from '../../efile';
import { pick } from '../../../shared/i18n/languages';
import { errorMessage } from '../../../shared/api/error-message';
import { ActiveJobs } from '../components/active-jobs';
import { HistoryTable } from '../components/history-table';
import { JobDetailDrawer } from '../components/job-detail';
import { NoScheduler } from '../components/no-scheduler';
import { SubmitForm } from '../components/submit-form';
import { useJobsClient } from '../hooks/use-jobs-client';
import { appDraft, fileDraft, type SubmitDraft } from '../lib/drafts';
import '../../../shared/ui/page.css';
import '../jobs.css';

type Tab = 'submit' | 'active' | 'history';
const TABS: Tab[] = ['submit', 'active', 'history'];

/**
 * The form's starting point from the address: `?script=<path>` (E-File's "submit as job": the file's text, its
 * folder as the working directory, read through E-File as the user), `?app=<id>` (the application centre's "run
 * this application": its ready job, the script and the resources it suggests; the home stays the working
 * directory) or none.
 */
function useDraft(
  efile: ReturnType<typeof createEfileApi> | null,
  scriptPath: string | null,
  appParam: string | null,
) {
  const file = useQuery({
    queryKey: ['jobs', 'draft', efile?.clusterId, scriptPath],
    queryFn: () => efile!.previewText(scriptPath!),
    enabled: efile !== null && scriptPath !== null,
    staleTime: Infinity,
    retry: false,
  });
  const appId = scriptPath === null && appParam !== null ? Number(appParam) : NaN;
  const app = useQuery({ ...appQueries.detail(appId), retry: false });
  const draft = useMemo<SubmitDraft | null>(() => {
    if (scriptPath && file.data) return fileDraft(scriptPath, file.data.content);
    return app.data ? appDraft(app.data) : null;
  }, [scriptPath, file.data, app.data]);
  return {
    draft,
    loading: (scriptPath !== null && file.isLoading) || app.isLoading,
    error: file.error ?? app.error,
  };
}

function JobsPageBody() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { clusters, isLoading } = useClusters();
  const cluster = clusters.find((c) => c.clusterId === params.get('cluster')) ?? clusters[0];
  // The user's account there is deactivated: said once, as E-File says it, in place of what would only fail.
  const deactivated = accountDeactivated(cluster);
  const clusterId = cluster?.clusterId ?? null;
  const tab: Tab = TABS.includes(params.get('tab') as Tab)
    ? (params.get('tab') as Tab)
    : params.get('script') || params.get('app')
      ? 'submit'
      : 'active';
  const { api, state } = useJobsClient(clusterId);
  const efileService = useClusterService(clusterId, 'efile');
  const efile = useMemo(
    () => (clusterId && efileService.url ? createEfileApi(clusterId, efileService.url) : null),
    [clusterId, efileService.url],
  );
  const {
    draft,
    loading: draftLoading,
    error: draftError,
  } = useDraft(efile, params.get('script'), params.get('app'));
  const set = (patch: Record<string, string | null>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(patch)) {
        if (v === null) next.delete(k);
        else next.set(k, v);
      }
      return next;
    });
  const center = cluster ? pick(i18n.language, cluster.centerName, cluster.centerNameEn) : '';
  const accounts = cluster?.accountDetail ? [cluster.accountDetail.accountId.toLowerCase()] : [];

  if (isLoading) return <Skeleton active />;
  return (
    <div className="hpc-page hpc-jobs">
      <div className="hpc-jobs-head">
        <h1 className="hpc-page-title">{t('jobs.title')}</h1>
        {clusters.length > 0 ? (
          <ClusterSelect
            aria-label={t('jobs.cluster')}
            className="hpc-jobs-cluster"
            clusters={clusters}
            value={clusterId}
            onChange={(id: string) => set({ cluster: id, job: null, script: null })}
            data-testid="jobs-cluster"
          />
        ) : null}
      </div>
      {clusters.length === 0 ? <NoScheduler state="none" center={t('jobs.none.noClusters')} compact /> : null}
      {clusterId && !deactivated && (state === 'none' || state === 'unreachable') ? (
        <NoScheduler state={state} center={center} />
      ) : null}
      {clusterId && !deactivated && state === 'loading' ? <Skeleton active /> : null}
      {clusterId && deactivated ? (
        <Result
          status="warning"
          data-testid="jobs-deactivated"
          title={t('jobs.deactivated.title', { centre: center })}
          subTitle={t('jobs.deactivated.text', { account: cluster?.accountDetail?.accountId ?? '' })}
        />
      ) : null}
      {api && !deactivated ? (
        <>
          {draftError ? <Alert type="warning" showIcon title={errorMessage(draftError, t) ?? ''} /> : null}
          <Tabs
            activeKey={tab}
            onChange={(k) => set({ tab: k })}
            destroyOnHidden
            items={[
              {
                key: 'submit',
                label: t('jobs.tabs.submit'),
                children: draftLoading ? (
                  <Skeleton active />
                ) : (
                  <SubmitForm
                    api={api}
                    homePath={cluster?.homePath ?? '/'}
                    efile={efile}
                    draft={draft}
                    onSubmitted={(jobId) => set({ tab: 'active', job: jobId, script: null, app: null })}
                  />
                ),
              },
              {
                key: 'active',
                label: t('jobs.tabs.active'),
                children: <ActiveJobs api={api} onDetail={(id) => set({ job: id })} />,
              },
              {
                key: 'history',
                label: t('jobs.tabs.history'),
                children: <HistoryTable api={api} accounts={accounts} onDetail={(id) => set({ job: id })} />,
              },
            ]}
          />
          <JobDetailDrawer api={api} jobId={params.get('job')} onClose={() => set({ job: null })} />
        </>
      ) : null}
    </div>
  );
}

/** /jobs (spec §2 main menu "Job"): submit, running and pending jobs, history, details (issue 22 §3). */
export default function JobsPage() {
  return (
    <RequireSession>
      <JobsPageBody />
    </RequireSession>
  );
}
