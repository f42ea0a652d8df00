import { Button, Card, Popconfirm, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserSession } from '@hpc/contracts';
import { identity } from '../../../shared/api/client';
import { notifySuccess } from '../../../shared/api/notify';
import { formatDateTime } from '../../../shared/utils/format';
import { describeAgent } from './user-agent';

export const SESSIONS_KEY = ['user-centre', 'sessions'] as const;

/**
 * The user's active sessions (issue 25 §1.4): browser and system, address, last use; "sign out" for each other one
 * and "sign out everywhere else". A session signed out here is refused at once by the portal and by every cluster's
 * file service (its tokens are revoked with it).
 */
export function SessionsCard() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: ({ signal }) => identity.user.sessions({ signal }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: SESSIONS_KEY });
  const endOne = useMutation({
    mutationFn: (id: string) => identity.user.endSession({ id }),
    onSuccess: () => notifySuccess(t('user-centre.sessions.ended', { count: 1 })),
    onSettled: refresh,
  });
  const endOthers = useMutation({
    mutationFn: () => identity.user.endOtherSessions(),
    onSuccess: (r) => notifySuccess(t('user-centre.sessions.ended', { count: r.ended })),
    onSettled: refresh,
  });
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  return (
    <Card
      title={t('user-centre.sessions.title')}
      variant="borderless"
      data-testid="uc-sessions"
      extra={
        <Popconfirm
          title={t('user-centre.sessions.endOthersConfirm')}
          okText={t('user-centre.sessions.endOthers')}
          onConfirm={() => endOthers.mutateAsync()}
          disabled={others === 0}
        >
          <Button danger disabled={others === 0} loading={endOthers.isPending}>
            {t('user-centre.sessions.endOthers')}
          </Button>
        </Popconfirm>
      }
    >
      <Table<UserSession>
        size="small"
        rowKey="id"
        loading={sessions.isLoading}
        dataSource={sessions.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'agent',
            title: t('user-centre.sessions.browser'),
            render: (_, s) => {
              const { browser, system } = describeAgent(s.userAgent);
              // "curl", not "curl on unknown"; "unknown client", not "unknown on unknown".
              const agent =
                browser && system
                  ? t('user-centre.sessions.agent', { browser, system })
                  : (browser ?? t('user-centre.sessions.unknownClient'));
              return (
                <>
                  <span title={s.userAgent || undefined}>{agent}</span>{' '}
                  {s.current && <Tag color="blue">{t('user-centre.sessions.current')}</Tag>}
                  {s.authMethod === 'oidc' && (
                    <Typography.Text type="secondary" className="hpc-uc-small">
                      {' '}
                      {t('user-centre.profile.methods.oidc')}
                    </Typography.Text>
                  )}
                </>
              );
            },
          },
          {
            key: 'ip',
            title: t('user-centre.sessions.address'),
            render: (_, s) => <span className="hpc-uc-data">{s.ip}</span>,
          },
          {
            key: 'last',
            title: t('user-centre.sessions.lastUse'),
            render: (_, s) => formatDateTime(s.lastSeenAt, i18n.language),
          },
          {
            key: 'created',
            title: t('user-centre.sessions.signedIn'),
            render: (_, s) => formatDateTime(s.createdAt, i18n.language),
          },
          {
            key: 'action',
            title: t('user-centre.sessions.action'),
            render: (_, s) =>
              s.current ? null : (
                <Popconfirm
                  title={t('user-centre.sessions.endConfirm')}
                  okText={t('user-centre.sessions.end')}
                  onConfirm={() => endOne.mutateAsync(s.id)}
                >
                  <Button size="small" danger data-testid="uc-session-end">
                    {t('user-centre.sessions.end')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Card>
  );
}
