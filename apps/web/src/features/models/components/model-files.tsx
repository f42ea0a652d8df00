import { useMemo, useState } from 'react';
import { CopyOutlined, DownloadOutlined, FileOutlined, FolderOutlined } from '@ant-design/icons';
import { Button, Table, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { loginPathFor, useSession } from '../../account';
import { formatSize } from '../../../shared/utils/format-size';
import { EmptyState } from '../../../shared/ui/empty-state';
import { api } from '../../../shared/api/client';
import { modelFileUrl } from '../api/model-file-url';
import { buildFileTree, type FileTreeNode } from '../lib/file-tree';
import { CopyToEfileDialog } from './copy-to-efile-dialog';

interface Props {
  modelId: number;
  modelName: string;
}

/** The model's files as a tree with size and sha256, each downloadable, and "copy to my E-File" (issue 13 §3). */
export function ModelFiles({ modelId, modelName }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const { user } = useSession();
  const [copying, setCopying] = useState(false);
  const files = useQuery({
    queryKey: ['models', 'files', modelId],
    queryFn: ({ signal }) => api.models.files(modelId, { signal }),
  });
  const tree = useMemo(() => buildFileTree(files.data?.files ?? []), [files.data]);

  if (!files.isLoading && tree.length === 0) return <EmptyState description={t('models.files.none')} />;

  return (
    <div className="hpc-model-files">
      <div className="hpc-model-files-head">
        <Typography.Text type="secondary" data-testid="model-files-summary">
          {t('models.files.summary', {
            count: files.data?.files.length ?? 0,
            size: formatSize(files.data?.totalSize ?? 0),
          })}
        </Typography.Text>
        {user ? (
          <Button type="primary" icon={<CopyOutlined />} onClick={() => setCopying(true)}>
            {t('models.copy.button')}
          </Button>
        ) : (
          <Link to={loginPathFor(location)}>
            <Button icon={<CopyOutlined />}>{t('models.copy.login')}</Button>
          </Link>
        )}
      </div>
      <Table<FileTreeNode>
        size="small"
        rowKey="key"
        loading={files.isLoading}
        dataSource={tree}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        columns={[
          {
            key: 'name',
            title: t('models.files.name'),
            render: (_, n) => (
              <span className="hpc-model-file-name">
                {n.children ? <FolderOutlined /> : <FileOutlined />} {n.name}
              </span>
            ),
          },
          {
            key: 'size',
            title: t('models.files.size'),
            width: 110,
            align: 'right',
            render: (_, n) => formatSize(n.size),
          },
          {
            key: 'sha256',
            title: t('models.files.sha256'),
            render: (_, n) =>
              n.sha256 && (
                <Typography.Text
                  className="hpc-sha256"
                  code
                  copyable={{
                    text: n.sha256,
                    tooltips: [t('models.files.copySha'), t('models.files.copied')],
                  }}
                >
                  <Tooltip title={n.sha256}>{n.sha256.slice(0, 12)}…</Tooltip>
                </Typography.Text>
              ),
          },
          {
            key: 'download',
            title: t('models.files.download'),
            width: 90,
            render: (_, n) =>
              !n.children && (
                <a
                  href={modelFileUrl(modelId, n.path)}
                  download={n.name}
                  aria-label={t('models.files.downloadOne', { name: n.path })}
                >
                  <DownloadOutlined />
                </a>
              ),
          },
        ]}
      />
      {user && (
        <CopyToEfileDialog
          open={copying}
          onClose={() => setCopying(false)}
          modelId={modelId}
          defaultName={modelName}
        />
      )}
    </div>
  );
}
