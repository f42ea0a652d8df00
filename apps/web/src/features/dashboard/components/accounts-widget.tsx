import { Empty, Skeleton, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Limits } from '@hpc/contracts';
import { identity } from '../../../shared/api/client';
import { errorMessage } from '../../../shared/api/error-message';
import { pick } from '../../../shared/i18n/languages';
import { formatDate, formatMoney } from '../../../shared/utils/format';
import { accountFlags } from '../lib/account-state';
import { Widget, WidgetError } from './widget';

export const accountsKey = ['dashboard', 'accounts'] as const;

/**
 * My accounts: balance, status and expiry, flagged by spec §4's alert rules (balance ≤ 100, ≤ 7 days). A list, not
 * a table: a card is ~380 px wide, and a table of five columns showed the name and the centres and hid the balance,
 * the status and the expiry (the alerts) behind a sideways scroll.
 */
export function AccountsWidget() {
  const { t, i18n } = useTranslation();
  const list = useQuery({
    queryKey: accountsKey,
    queryFn: ({ signal }) => identity.accounts.list({ signal }),
  });
  const now = Date.now();
  return (
    <Widget testId="dash-accounts" title={t('dashboard.accounts.title')}>
      {list.error ? (
        <WidgetError message={errorMessage(list.error, t) ?? ''} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : list.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.accounts.none')} />
      ) : (
        <ul className="hpc-dash-accounts" aria-label={t('dashboard.accounts.title')}>
          {list.data.map((a) => {
            const { flags, daysLeft } = accountFlags(a, now);
            return (
              <li key={a.accountId}>
                <div className="hpc-dash-account-head">
                  <strong>{a.name}</strong>
                  <span>
                    {t('dashboard.accounts.balance')} <strong>{formatMoney(a.balance, i18n.language)}</strong>
                  </span>
                </div>
                <div className="hpc-dash-muted">
                  {pick(i18n.language, a.centerNames, a.centerNamesEn)}
                  {' · '}
                  {a.endUseTime
                    ? t('dashboard.accounts.expiresOn', { date: formatDate(a.endUseTime, i18n.language) })
                    : t('dashboard.accounts.noExpiry')}
                </div>
                <span className="hpc-dash-flags" data-testid={`dash-account-${a.accountId}`}>
                  <Tag color={a.status === 'Normal' ? 'success' : 'error'}>
                    {t(`dashboard.accounts.${a.status}`)}
                  </Tag>
                  {flags.includes('lowBalance') ? (
                    <Tag color="warning">
                      {t('dashboard.accounts.lowBalance', { threshold: Limits.balanceThreshold })}
                    </Tag>
                  ) : null}
                  {flags.includes('expiring') ? (
                    <Tag color="warning">{t('dashboard.accounts.expiring', { count: daysLeft })}</Tag>
                  ) : null}
                  {flags.includes('expired') ? (
                    <Tag color="error">{t('dashboard.accounts.expired')}</Tag>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Widget>
  );
}
