import { AccountRoutes, Limits } from '@hpc/contracts';
import { addRoute, ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from './session-http';
import type { AccountService } from '../services/account.service';

/** The user's accounts (grouped over their clusters) and the alerts the alert bar shows (spec §4, §9). */
export function accountRoutes(app: AppServer, accounts: AccountService, http: SessionHttp): void {
  addRoute(app, AccountRoutes.list, async (req) => ok(await accounts.accountsOf(http.live(req).user.id)));

  addRoute(app, AccountRoutes.alerts, async (req) => {
    const live = http.live(req);
    return ok({
      alerts: await accounts.alertsOf(live.user.id),
      balanceThreshold: Limits.balanceThreshold,
      expiryReminderDays: Limits.expiryReminderDays,
    });
  });
}
