import { useQuery } from '@tanstack/react-query';
import { Limits, type AccountAlert } from '@hpc/contracts';
import { useSession } from '../account';
import { sortAlerts } from './account-alerts';
import type { AccountAlertsData } from '@hpc/api-client';
import { identity } from '../../shared/api/client';

const select = (data: AccountAlertsData) => ({ ...data, alerts: sortAlerts(data.alerts) });

/** The account alerts of the logged-in user, most severe first; none before login. */
export function useAccountAlerts(): { alerts: AccountAlert[]; balanceThreshold: number } {
  const { user } = useSession();
  const { data } = useQuery({
    queryKey: ['account-alerts', user?.id],
    queryFn: ({ signal }) => identity.accounts.alerts({ signal }),
    enabled: user !== null,
    staleTime: 5 * 60_000,
    // The bar is a reminder: when it cannot be loaded the page is still usable, so no warning pops up.
    meta: { silent: true },
    select,
  });
  return { alerts: data?.alerts ?? [], balanceThreshold: data?.balanceThreshold ?? Limits.balanceThreshold };
}
