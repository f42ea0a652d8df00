import { Card, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ClusterUserBaseInfo } from '@hpc/contracts';
import { pick } from '../../../shared/i18n/languages';
import { isDisabledCluster, nameSaysDisabled, useClusters } from '../../clusters';

/** The user's centres with their compute user, home and the account charged there (spec §3 cluster fields). */
export function ClustersCard() {
  const { t, i18n } = useTranslation();
  const { clusters, isLoading } = useClusters();
  return (
    <Card title={t('user-centre.clusters.title')} variant="borderless">
      <Table<ClusterUserBaseInfo>
        size="small"
        rowKey="clusterId"
        loading={isLoading}
        dataSource={clusters}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('user-centre.clusters.none') }}
        columns={[
          {
            key: 'centre',
            title: t('user-centre.clusters.centre'),
            render: (_, c) => {
              const name = pick(i18n.language, c.centerName, c.centerNameEn);
              return (
                <>
                  <span className="hpc-uc-data">{name}</span>{' '}
                  {isDisabledCluster(c) && !nameSaysDisabled(name) && (
                    <Tag>{t('user-centre.clusters.centreDisabled')}</Tag>
                  )}
                  <div>
                    <Typography.Text type="secondary" className="hpc-uc-small hpc-uc-data">
                      {c.clusterId}
                    </Typography.Text>
                  </div>
                </>
              );
            },
          },
          {
            key: 'cun',
            title: t('user-centre.clusters.computeUser'),
            render: (_, c) => <span className="hpc-uc-data">{c.clusterUserName}</span>,
          },
          {
            key: 'home',
            title: t('user-centre.clusters.home'),
            render: (_, c) => (
              <Typography.Text code className="hpc-uc-data">
                {c.homePath}
              </Typography.Text>
            ),
          },
          {
            key: 'account',
            title: t('user-centre.clusters.account'),
            render: (_, c) =>
              c.accountDetail ? (
                <>
                  <span className="hpc-uc-data">{c.accountDetail.name}</span>{' '}
                  {c.accountDetail.status === 'Normal' ? (
                    <Tag color="success">{t('user-centre.accounts.normal')}</Tag>
                  ) : (
                    <Tag color="error">{t('user-centre.accounts.disabled')}</Tag>
                  )}
                </>
              ) : (
                '-'
              ),
          },
          {
            key: 'member',
            title: t('user-centre.clusters.memberType'),
            render: (_, c) =>
              c.memberType ? (
                <>
                  {t(`user-centre.clusters.member.${c.memberType}`)}
                  {c.adminFullName && (
                    <Typography.Text type="secondary" className="hpc-uc-small">
                      {t('common.parenthesized', {
                        text: t('user-centre.clusters.admin', { name: c.adminFullName }),
                      })}
                    </Typography.Text>
                  )}
                </>
              ) : (
                '-'
              ),
          },
        ]}
      />
    </Card>
  );
}
