import { useClusterServiceApi, type ClusterServiceState } from '../../clusters';
import { createJobsApi } from '../api/jobs.api';

export type JobServiceState = ClusterServiceState;

/**
 * The job service of a cluster (its `gridview_service`, spec §4: round-robin by user id, health check, failover).
 * A centre that publishes none, or none enabled, has no scheduler for the portal: `none`, a state the pages show
 * plainly ("no scheduler on this centre"), never as an error. `unreachable`: published but no instance answers.
 */
export function useJobsClient(clusterId: string | null | undefined) {
  return useClusterServiceApi(clusterId, 'gridview', createJobsApi);
}
