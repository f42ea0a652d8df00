import { Card, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Limits, type UserAccount } from '@hpc/contracts';
import { pick } from '../../../shared/i18n/languages';
import { formatDate, formatMoney } from '../../../shared/utils/format';
import { identity } from '../../../shared/api/client';

const DAY = 24 * 3600 * 1000;

/**
 * The user's accounts, each with the centres it is used on, status, balance and expiry: the alert bar's data in
 * full, with the same thresholds (spec §9) marking what the bar would warn about.
 */
export function AccountsCard() {
  const { t, i18n } = useTranslation();
  const accounts = useQuery({
    queryKey: ['user-centre', 'accounts'],
    queryFn: ({ signal }) => identity.accounts.list({ signal }),
  });

  return (
    <Card title={t('user-centre.accounts.title')} variant="borderless">
      <Table<UserAccount>
        size="small"
        rowKey="accountId"
        loading={accounts.isLoading}
        dataSource={accounts.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('user-centre.accounts.none') }}
        columns={[
          {
            key: 'name',
            title: t('user-centre.accounts.name'),
            render: (_, a) => (
              <div className="hpc-uc-data">
                <div>{a.name}</div>
                <Typography.Text type="secondary" className="hpc-uc-small">
                  {a.accountId}
                </Typography.Text>
              </div>
            ),
          },
          {
            key: 'centres',
            title: t('user-centre.accounts.centres'),
            render: (_, a) => (
              <span className="hpc-uc-data">{pick(i18n.language, a.centerNames, a.centerNamesEn)}</span>
            ),
          },
          {
            key: 'status',
            title: t('user-centre.accounts.status'),
            render: (_, a) =>
              a.status === 'Normal' ? (
                <Tag color="success">{t('user-centre.accounts.normal')}</Tag>
              ) : (
                <Tag color="error">{t('user-centre.accounts.disabled')}</Tag>
              ),
          },
          {
            key: 'balance',
            title: t('user-centre.accounts.balance'),
            align: 'right',
            render: (_, a) => (
              <Typography.Text
                className="hpc-uc-data"
                type={a.balance <= Limits.balanceThreshold ? 'warning' : undefined}
              >
                {formatMoney(a.balance, i18n.language)}
              </Typography.Text>
            ),
          },
          {
            key: 'expiry',
            title: t('user-centre.accounts.expiry'),
            render: (_, a) => {
              if (a.endUseTime === null) return t('user-centre.accounts.noExpiry');
              const days = Math.ceil((a.endUseTime - Date.now()) / DAY);
              return (
                <Typography.Text type={days <= Limits.expiryReminderDays ? 'warning' : undefined}>
                  {formatDate(a.endUseTime, i18n.language)}
                  {days <= Limits.expiryReminderDays &&
                    t('common.parenthesized', {
                      text:
                        days < 0
                          ? t('user-centre.accounts.expired')
                          : t('user-centre.accounts.daysLeft', { count: days }),
                    })}
                </Typography.Text>
              );
            },
          },
        ]}
      />
    </Card>
  );
}
