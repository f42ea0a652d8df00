import type { QueryClient } from '@tanstack/react-query';
import { identity } from '../../shared/api/client';
import { accountsKey } from './components/accounts-widget';
import { preferencesKey } from './components/quick-entries';

/**
 * Starts the Dashboard's portal queries at navigation, in parallel with the page's code (the cold start budget of
 * issue 22 §4 is 1 s); each cluster's widgets start their own once the clusters are known.
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
}
