import { Limits, type UserAccount } from '@hpc/contracts';

export type AccountFlag = 'disabled' | 'lowBalance' | 'expiring' | 'expired';

const DAY = 24 * 3600_000;

/** spec §4's alert rules for one account: not Normal, balance within the threshold (100), expiry within 7 days. */
export function accountFlags(
  a: Pick<UserAccount, 'status' | 'balance' | 'endUseTime'>,
  now: number,
): { flags: AccountFlag[]; daysLeft: number | null } {
  const flags: AccountFlag[] = [];
  if (a.status !== 'Normal') flags.push('disabled');
  if (a.balance <= Limits.balanceThreshold) flags.push('lowBalance');
  const daysLeft = a.endUseTime === null ? null : Math.ceil((a.endUseTime - now) / DAY);
  if (daysLeft !== null && daysLeft <= 0) flags.push('expired');
  else if (daysLeft !== null && daysLeft <= Limits.expiryReminderDays) flags.push('expiring');
  return { flags, daysLeft };
}
