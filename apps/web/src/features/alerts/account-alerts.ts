import type { AccountAlert, AlertKind } from '@hpc/contracts';

const SEVERITY: Record<AlertKind, number> = { disabled: 0, expired: 1, lowBalance: 2, expiring: 3 };
const worst = (a: Pick<AccountAlert, 'kinds'>) => Math.min(...a.kinds.map((k) => SEVERITY[k]));

/** The accounts that need the bar, most severe first (a deactivated account before a low balance). */
export function sortAlerts(alerts: readonly AccountAlert[]): AccountAlert[] {
  return alerts.filter((a) => a.kinds.length > 0).sort((x, y) => worst(x) - worst(y));
}

/** One sentence of the bar: a key under `alerts.` and its parameters, so the rule is testable without i18n. */
export interface AlertMessage {
  key: `alerts.${AlertKind}`;
  kind: AlertKind;
  params: {
    name: string;
    centers: string;
    balance?: string;
    threshold?: number;
    /** Days left (i18next's plural count). */
    count?: number;
    date?: number;
  };
}

/**
 * The sentences for one account, its centres named in the page's language. A deactivated account gets only the
 * deactivation notice of spec §1 (its balance or expiry do not matter while nothing can be used there); otherwise
 * one sentence per reason, most severe first.
 */
export function alertMessages(alert: AccountAlert, lang: string, balanceThreshold: number): AlertMessage[] {
  const base = { name: alert.name, centers: lang === 'en-US' ? alert.centerNamesEn : alert.centerNames };
  if (alert.kinds.includes('disabled')) return [{ key: 'alerts.disabled', kind: 'disabled', params: base }];
  const date = alert.endUseTime ?? undefined;
  return [...alert.kinds]
    .sort((x, y) => SEVERITY[x] - SEVERITY[y])
    .map((kind): AlertMessage => {
      switch (kind) {
        case 'lowBalance':
          return {
            key: 'alerts.lowBalance',
            kind,
            params: { ...base, balance: alert.balance.toFixed(2), threshold: balanceThreshold },
          };
        case 'expiring':
          return { key: 'alerts.expiring', kind, params: { ...base, count: alert.daysLeft ?? 0, date } };
        case 'expired':
          return { key: 'alerts.expired', kind, params: { ...base, date } };
        case 'disabled':
          return { key: 'alerts.disabled', kind, params: base };
      }
    });
}

/**
 * What the user closed: the accounts and reasons shown at the time. A new reason (or a new account) makes the bar
 * come back within the same session; the same alerts stay closed.
 */
export const alertSignature = (alerts: readonly Pick<AccountAlert, 'accountId' | 'kinds'>[]): string =>
  alerts
    .map((a) => `${a.accountId}:${[...a.kinds].sort().join('+')}`)
    .sort()
    .join('|');
