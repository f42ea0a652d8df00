import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryOptions } from '../account';
import {
  accountDeactivated,
  clusterServiceQueryOptions,
  clustersQueryOptions,
  sortClusters,
} from '../clusters';
import { identity } from '../../shared/api/client';
import { accountsKey } from './components/accounts-widget';
import { preferencesKey } from './components/quick-entries';

/**
 * Starts the Dashboard's queries at navigation, in parallel with the page's code (the cold start budget of issue
 * 22 §4 is 1 s): the portal's (preferences, accounts), then, once the user is known, their clusters and each
 * cluster's file and job services (the health check that picks an instance). Measured cold, the clusters' list
 * started only once the page had rendered, ~400 ms after the session was known, and each widget waited on that and
 * then on its service's health check in turn (bench/dashboard/cold-open.ts). Not awaited: the page renders as soon
 * as its code is there, and each widget takes what has arrived.
 */
export async function loadDashboard(qc: QueryClient): Promise<void> {
  void qc.prefetchQuery({
    queryKey: preferencesKey,
    queryFn: ({ signal }) => identity.user.preferences({ signal }),
  });
  void qc.prefetchQuery({
    queryKey: accountsKey,
    queryFn: ({ signal }) => identity.accounts.list({ signal }),
  });
  void (async () => {
    const user = await qc.ensureQueryData(sessionQueryOptions());
    if (!user) return;
    const clusters = sortClusters(await qc.ensureQueryData(clustersQueryOptions(user.id)));
    for (const cluster of clusters) {
      // A deactivated account: its widgets call nothing there (each service would answer 1007).
      if (accountDeactivated(cluster)) continue;
      void qc.prefetchQuery(clusterServiceQueryOptions(user.id, cluster, 'efile'));
      void qc.prefetchQuery(clusterServiceQueryOptions(user.id, cluster, 'gridview'));
    }
  })().catch(() => undefined);
}
