import { useMemo } from 'react';
import { useClusterService } from '../../clusters';
import { createJobsApi, type JobsApi } from '../api/jobs.api';

export type JobServiceState = 'loading' | 'none' | 'unreachable' | 'ready';

/**
 * The job service of a cluster (its `gridview_service`, spec §4: round-robin by user id, health check, failover).
 * A centre that publishes none, or none enabled, has no scheduler for the portal: `none`, a state the pages show
 * plainly ("no scheduler on this centre"), never as an error. `unreachable`: published but no instance answers.
 */
export function useJobsClient(clusterId: string | null | undefined) {
  const service = useClusterService(clusterId, 'gridview');
  const api: JobsApi | null = useMemo(
    () => (clusterId && service.url ? createJobsApi(clusterId, service.url) : null),
    [clusterId, service.url],
  );
  const kind = service.error?.kind;
  const state: JobServiceState = api
    ? 'ready'
    : kind === 'NoService' || kind === 'NoEnableService'
      ? 'none'
      : kind === 'AccessError'
        ? 'unreachable'
        : 'loading';
  return { api, state, service };
}
