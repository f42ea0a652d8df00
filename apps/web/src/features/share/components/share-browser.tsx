import { useMemo, useState } from 'react';
import { Breadcrumb, Button, Pagination, Table } from 'antd';
import { DownloadOutlined, FileOutlined, FolderFilled } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Limits, type FileEntry } from '@hpc/contracts';
import { formatSizeExact } from '../../../shared/utils/format-size';
import { startDownload } from '../../../shared/utils/start-download';
import { shareErrorKey, type ShareApi } from '../share.api';

interface Props {
  api: ShareApi;
  shareToken: string;
  name: string;
  isDir: boolean;
  onError: (key: string) => void;
}

/** The shared folder, browsable below its top only, with download of files and a zip of folders. */
export function ShareBrowser({ api, shareToken, name, isDir, onError }: Props) {
  const { t, i18n } = useTranslation();
  const [path, setPath] = useState('');
  const [page, setPage] = useState<{ num: number; size: number }>({ num: 1, size: Limits.defaultPageSize });
  const q = useQuery({
    queryKey: ['share-public', shareToken, path, page.num, page.size],
    queryFn: async ({ signal }) => {
      try {
        return await api.list({ shareToken, path, pageNum: page.num, pageSize: page.size }, signal);
      } catch (e) {
        onError(shareErrorKey(e));
        throw e;
      }
    },
    enabled: isDir,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  const date = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }),
    [i18n.language],
  );
  const open = (p: string) => {
    setPath(p === '/' ? '' : p);
    setPage((pg) => ({ ...pg, num: 1 }));
  };
  const segs = path.split('/').filter(Boolean);

  if (!isDir) {
    return (
      <div className="share-single">
        <FileOutlined /> <strong>{name}</strong>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          onClick={() => startDownload(api.downloadUrl(shareToken, ''))}
        >
          {t('share.download')}
        </Button>
      </div>
    );
  }

  return (
    <div className="share-browser" data-testid="share-browser">
      <div className="share-browser-bar">
        <Breadcrumb
          items={[
            { key: '/', title: <a onClick={() => open('')}>{name}</a> },
            ...segs.map((s, i) => ({
              key: s + i,
              title: <a onClick={() => open(`/${segs.slice(0, i + 1).join('/')}`)}>{s}</a>,
            })),
          ]}
        />
        <Button
          icon={<DownloadOutlined />}
          onClick={() => startDownload(api.downloadUrl(shareToken, path))}
          data-testid="share-zip"
        >
          {t('share.downloadFolder')}
        </Button>
      </div>
      <Table<FileEntry>
        size="small"
        rowKey="path"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('share.empty') }}
        columns={[
          {
            key: 'name',
            title: t('efile.columns.name'),
            render: (_, e) =>
              e.isDirectory ? (
                <a onClick={() => open(e.path)} className="share-name">
                  <FolderFilled className="share-dir-icon" /> {e.name}
                </a>
              ) : (
                <span className="share-name">
                  <FileOutlined /> {e.name}
                </span>
              ),
          },
          {
            key: 'size',
            title: t('efile.columns.size'),
            width: 110,
            // What a share holds: the exact formatter (spec §9).
            render: (_, e) => (e.isDirectory ? '-' : formatSizeExact(e.size)),
          },
          {
            key: 'mtime',
            title: t('efile.columns.mtime'),
            width: 170,
            render: (_, e) => date.format(e.mtime),
          },
          {
            key: 'op',
            title: t('efile.upload.columns.operation'),
            width: 120,
            render: (_, e) => (
              <Button
                size="small"
                type="link"
                icon={<DownloadOutlined />}
                onClick={() => startDownload(api.downloadUrl(shareToken, e.path))}
              >
                {e.isDirectory ? t('share.zip') : t('share.download')}
              </Button>
            ),
          },
        ]}
      />
      {q.data && q.data.total > page.size && (
        <Pagination
          size="small"
          current={page.num}
          pageSize={page.size}
          total={q.data.total}
          showSizeChanger
          pageSizeOptions={Limits.pageSizes.map(String)}
          onChange={(num, size) => setPage({ num: size !== page.size ? 1 : num, size })}
        />
      )}
    </div>
  );
}
