import { Button, Card, Popconfirm, Table, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { IssuedCredential } from '@hpc/contracts';
import { identity } from '../../../shared/api/client';
import { notifySuccess } from '../../../shared/api/notify';
import { pick } from '../../../shared/i18n/languages';
import { useClusters } from '../../clusters';
import { formatDateTime } from '../../../shared/utils/format';

export const CREDENTIALS_KEY = ['user-centre', 'credentials'] as const;

/**
 * The fast-transfer day tokens and Linux commands issued to the user today and still valid (issue 25 §1.4), each
 * revocable: a leaked one stops working on every file service at once instead of at the end of the day.
 */
export function CredentialsCard() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { clusters } = useClusters();
  const creds = useQuery({
    queryKey: CREDENTIALS_KEY,
    queryFn: ({ signal }) => identity.user.credentials({ signal }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => identity.user.revokeCredential({ id }),
    onSuccess: () => notifySuccess(t('user-centre.credentials.revoked')),
    onSettled: () => client.invalidateQueries({ queryKey: CREDENTIALS_KEY }),
  });
  const centre = (clusterId: string) => {
    const c = clusters.find((x) => x.clusterId === clusterId);
    return c ? pick(i18n.language, c.centerName, c.centerNameEn) : clusterId;
  };

  return (
    <Card title={t('user-centre.credentials.title')} variant="borderless" data-testid="uc-credentials">
      <Typography.Paragraph type="secondary">{t('user-centre.credentials.intro')}</Typography.Paragraph>
      <Table<IssuedCredential>
        size="small"
        rowKey="id"
        loading={creds.isLoading}
        dataSource={creds.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('user-centre.credentials.none') }}
        columns={[
          {
            key: 'kind',
            title: t('user-centre.credentials.kind'),
            render: (_, c) => t(`user-centre.credentials.kinds.${c.kind}`),
          },
          {
            key: 'centre',
            title: t('user-centre.credentials.centre'),
            render: (_, c) => <span className="hpc-uc-data">{centre(c.clusterId)}</span>,
          },
          {
            key: 'detail',
            title: t('user-centre.credentials.detail'),
            render: (_, c) => {
              // A Linux command's record is `<direction> <paths>` (efile's linux.service): said in words.
              const [, direction, paths] = /^(up|down|both) (.*)$/s.exec(c.detail) ?? [];
              const what = c.kind === 'linux' && direction ? paths! : c.detail;
              return (
                <>
                  {c.kind === 'linux' &&
                    direction &&
                    `${t(`user-centre.credentials.directions.${direction}`)} `}
                  <Typography.Text code className="hpc-uc-data">
                    {what}
                  </Typography.Text>
                </>
              );
            },
          },
          {
            key: 'issued',
            title: t('user-centre.credentials.issued'),
            render: (_, c) => formatDateTime(c.issuedAt, i18n.language),
          },
          {
            key: 'expires',
            title: t('user-centre.credentials.expires'),
            render: (_, c) => formatDateTime(c.expiresAt, i18n.language),
          },
          {
            key: 'action',
            title: t('user-centre.sessions.action'),
            render: (_, c) => (
              <Popconfirm
                title={t('user-centre.credentials.revokeConfirm')}
                okText={t('user-centre.credentials.revoke')}
                onConfirm={() => revoke.mutateAsync(c.id)}
              >
                <Button size="small" danger data-testid="uc-credential-revoke">
                  {t('user-centre.credentials.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
