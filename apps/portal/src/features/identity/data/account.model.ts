import {
  Limits,
  type AccountAlert,
  type AccountDetail,
  type AlertKind,
  type UserAccount,
} from '@hpc/contracts';
import type { AccountRow } from './account.repository';

/** Pure rules about accounts (no I/O): money conversion, the detail shape and the alert thresholds of spec §9. */

const DAY_MS = 24 * 3600 * 1000;

/** Yuan (two decimals) ↔ fen, the unit the database keeps. */
export const toCents = (yuan: number): number => Math.round(yuan * 100);
export const toYuan = (cents: number): number => cents / 100;

export function toAccountDetail(row: AccountRow): AccountDetail {
  return {
    accountId: row.account_id,
    name: row.name,
    status: row.status,
    balance: toYuan(row.balance_cents),
    endUseTime: row.end_use_time,
    createTime: row.create_time,
  };
}

/**
 * Why an account needs the alert bar (spec §4): not Normal, balance at or under `Limits.balanceThreshold`, end
 * time within `Limits.expiryReminderDays` (or past). An empty list means no alert.
 */
export function alertFor(account: UserAccount, now: number): AccountAlert {
  const kinds: AlertKind[] = [];
  if (account.status !== 'Normal') kinds.push('disabled');
  if (account.balance <= Limits.balanceThreshold) kinds.push('lowBalance');
  let daysLeft: number | null = null;
  if (account.endUseTime !== null) {
    const left = account.endUseTime - now;
    daysLeft = Math.ceil(left / DAY_MS);
    if (left <= 0) kinds.push('expired');
    else if (left <= Limits.expiryReminderDays * DAY_MS) kinds.push('expiring');
  }
  return { ...account, kinds, daysLeft };
}
