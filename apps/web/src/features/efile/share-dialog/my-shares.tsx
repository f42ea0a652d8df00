import { App, Button, Drawer, Table, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import type { ShareInfo } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';
import { formatDateTime } from '../../../shared/utils/format';
import { useCopyTips } from '../../../shared/ui/use-copy-tips';
import { absoluteLink } from './share-code';

const STATUS_COLOR: Record<string, string> = { valid: 'green', expired: 'orange', closed: 'default' };

/** "My shares": path, link, code, share time, end time, status, and close (spec §2). */
export function MySharesDrawer({ api, onClose }: { api: EfileApi; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const key = ['efile', api.clusterId, 'shares'];
  const q = useQuery({ queryKey: key, queryFn: ({ signal }) => api.shareList(1, 500, signal), staleTime: 0 });
  const copyTips = useCopyTips();
  const date = (ms: number) => formatDateTime(ms, i18n.language);
  const close = async (s: ShareInfo) => {
    try {
      await api.shareClose({ shareId: s.shareId });
      void message.success(t('efile.share.closed'));
      await qc.invalidateQueries({ queryKey: key });
    } catch (e) {
      notifyError(e);
    }
  };
  return (
    <Drawer open title={t('efile.myShares.title')} size="min(1280px, 95vw)" onClose={onClose}>
      <Table<ShareInfo>
        size="small"
        rowKey="shareId"
        loading={q.isLoading}
        dataSource={q.data?.list ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        data-testid="efile-my-shares"
        columns={[
          {
            key: 'path',
            title: t('efile.myShares.path'),
            // Whole and wrapped, like the link: two shares in one deep folder differ only at the end.
            render: (_, s) => <span className="efile-my-shares-wrap">{s.path}</span>,
          },
          {
            key: 'link',
            title: t('efile.share.link'),
            // The whole address, as the share dialog shows it and as the recipient needs it (the portal's own path
            // alone is of no use in a mail). It wraps rather than ends in an ellipsis: the cell's ellipsis cut the
            // copy button off with the end of the link, and a link is read to its last character.
            width: 280,
            render: (_, s) => {
              const link = absoluteLink(s.link, window.location.origin);
              return (
                <Typography.Text copyable={{ text: link, ...copyTips }} className="efile-my-shares-wrap">
                  {link}
                </Typography.Text>
              );
            },
          },
          {
            key: 'code',
            title: t('efile.share.code'),
            width: 130,
            render: (_, s) => (
              <Typography.Text copyable={{ text: s.password, ...copyTips }}>{s.password}</Typography.Text>
            ),
          },
          {
            key: 'shareTime',
            title: t('efile.myShares.shareTime'),
            width: 175,
            render: (_, s) => date(s.shareTime),
          },
          {
            key: 'endTime',
            title: t('efile.share.endTime'),
            width: 175,
            render: (_, s) => date(s.endUseTime),
          },
          {
            key: 'status',
            title: t('efile.myShares.status'),
            width: 90,
            render: (_, s) => (
              <Tag color={STATUS_COLOR[s.status]}>
                {t(`efile.myShares.states.${s.status}`, { defaultValue: s.status })}
              </Tag>
            ),
          },
          {
            key: 'op',
            title: t('efile.upload.columns.operation'),
            width: 90,
            render: (_, s) =>
              s.status === 'valid' ? (
                <Button size="small" danger onClick={() => void close(s)}>
                  {t('efile.share.close')}
                </Button>
              ) : null,
          },
        ]}
      />
    </Drawer>
  );
}
