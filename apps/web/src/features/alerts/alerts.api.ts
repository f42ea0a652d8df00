import type { Static } from 'typebox';
import type { AccountAlertsResponse } from '@hpc/contracts';
import { apiClient } from '../../shared/api/client';

export type AccountAlertsData = Static<typeof AccountAlertsResponse>['data'];

export const alertsApi = {
  /**
   * The user's accounts that need the bar, with their reasons (spec §4, §9). The portal applies the thresholds with
   * its own clock, so every page and every user sees the same rule.
   */
  accountAlerts: (signal?: AbortSignal) =>
    apiClient.get<AccountAlertsData>('/api/account/alerts', undefined, { signal }),
};
