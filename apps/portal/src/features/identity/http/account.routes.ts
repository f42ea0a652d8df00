import { AccountAlertsResponse, Limits, UserAccountsResponse } from '@hpc/contracts';
import { ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from './session-http';
import type { AccountService } from '../services/account.service';

const tags = ['accounts'];

/** The user's accounts (grouped over their clusters) and the alerts the alert bar shows (spec §4, §9). */
export function accountRoutes(app: AppServer, accounts: AccountService, http: SessionHttp): void {
  app.get('/api/account/list', { schema: { tags, response: { 200: UserAccountsResponse } } }, async (req) =>
    ok(await accounts.accountsOf(http.live(req).user.id)),
  );

  app.get(
    '/api/account/alerts',
    { schema: { tags, response: { 200: AccountAlertsResponse } } },
    async (req) => {
      const live = http.live(req);
      return ok({
        alerts: await accounts.alertsOf(live.user.id),
        balanceThreshold: Limits.balanceThreshold,
        expiryReminderDays: Limits.expiryReminderDays,
      });
    },
  );
}
