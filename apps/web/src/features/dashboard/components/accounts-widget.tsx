import { Skeleton, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Limits, type UserAccount } from '@hpc/contracts';
import { identity } from '../../../shared/api/client';
import { errorMessage } from '../../../shared/api/error-message';
import { formatTime } from '../../jobs';
import { accountFlags } from '../lib/account-state';
import { Widget, WidgetError } from './widget';
import { ScrollRegion } from '../../../shared/ui/scroll-region';

export const accountsKey = ['dashboard', 'accounts'] as const;

/** My accounts: balance, status and expiry, flagged by spec §4's alert rules (balance ≤ 100, ≤ 7 days). */
export function AccountsWidget() {
  const { t, i18n } = useTranslation();
  const list = useQuery({
    queryKey: accountsKey,
    queryFn: ({ signal }) => identity.accounts.list({ signal }),
  });
  const now = Date.now();
  const money = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'CNY' });
  return (
    <Widget testId="dash-accounts" title={t('dashboard.accounts.title')}>
      {list.error ? (
        <WidgetError message={errorMessage(list.error, t) ?? ''} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <ScrollRegion label={t('dashboard.accounts.title')}>
          <Table<UserAccount>
            rowKey="accountId"
            size="small"
            pagination={false}
            dataSource={list.data}
            locale={{ emptyText: t('dashboard.accounts.none') }}
            columns={[
              { title: t('dashboard.accounts.title'), dataIndex: 'name' },
              {
                title: t('dashboard.accounts.centers'),
                key: 'centers',
                render: (_, a) => (i18n.language === 'en-US' ? a.centerNamesEn : a.centerNames),
              },
              {
                title: t('dashboard.accounts.balance'),
                dataIndex: 'balance',
                render: (b: number) => money.format(b),
              },
              {
                title: t('dashboard.accounts.status'),
                key: 'status',
                render: (_, a) => {
                  const { flags, daysLeft } = accountFlags(a, now);
                  return (
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
                        <Tag color="warning">{t('dashboard.accounts.expiring', { days: daysLeft })}</Tag>
                      ) : null}
                      {flags.includes('expired') ? (
                        <Tag color="error">{t('dashboard.accounts.expired')}</Tag>
                      ) : null}
                    </span>
                  );
                },
              },
              {
                title: t('dashboard.accounts.expiry'),
                dataIndex: 'endUseTime',
                render: (v: number | null) =>
                  v ? formatTime(v, i18n.language) : t('dashboard.accounts.noExpiry'),
              },
            ]}
          />
        </ScrollRegion>
      )}
    </Widget>
  );
}
