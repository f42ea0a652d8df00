import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Input, Modal, Space, Table, Typography } from 'antd';
import { ArrowUpOutlined, FileOutlined, FolderOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../shared/utils/format-size';
import { fastransClient, type LocalEntry, type LocalListing } from './fastrans-client';
import { RelayNote } from './relay-note';
import { useFastrans } from './use-fastrans';

interface Props {
  /** `pick`: files and folders to upload; `folder`: the local folder a download goes into. */
  mode: 'pick' | 'folder';
  /** Where the cluster side is (shown as the other end of the transfer). */
  remote: string;
  onCancel: () => void;
  onPick: (picked: LocalEntry[], folder: string) => void;
  onError: (e: unknown) => void;
}

/**
 * The local file browser (issue 11 §3): the user's own folders, listed by the client's `list` action, to pick
 * what to upload or where a download goes. The browser's own pickers cannot give the client a local path.
 */
export function LocalPicker({ mode, remote, onCancel, onPick, onError }: Props) {
  const { t } = useTranslation();
  const [listing, setListing] = useState<LocalListing | null>(null);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  // The machine whose folders are listed: through the relay the user may pick another of theirs in the note above.
  const { client } = useFastrans();
  // Read at the call, so that a new onError from the parent's render never lists the folder again (which would
  // also drop what the user ticked).
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  // Only the last listing asked for is shown: through the relay an earlier one (the folder clicked before, the
  // machine before the switch) may answer after it.
  const asked = useRef(0);
  const open = useCallback(async (path?: string) => {
    const mine = ++asked.current;
    setLoading(true);
    try {
      const l = await fastransClient.list(path);
      if (mine !== asked.current) return;
      setListing(l);
      setSelected([]);
    } catch (e) {
      if (mine === asked.current) onErrorRef.current(e);
    } finally {
      if (mine === asked.current) setLoading(false);
    }
  }, []);
  // At the start and whenever the page drives another machine: that machine's home, nothing ticked.
  useEffect(() => {
    void open();
  }, [open, client]);

  const rows = listing?.list.filter((e) => mode === 'pick' || e.dir) ?? [];
  const picked = rows.filter((r) => selected.includes(r.path));
  const ok = () => {
    if (!listing) return;
    if (mode === 'folder') onPick([], picked.length === 1 && picked[0]!.dir ? picked[0]!.path : listing.path);
    else onPick(picked, listing.path);
  };

  return (
    <Modal
      open
      width="min(760px, 95vw)"
      title={mode === 'pick' ? t('fastrans.picker.uploadTitle') : t('fastrans.picker.downloadTitle')}
      onCancel={onCancel}
      onOk={ok}
      okText={mode === 'pick' ? t('fastrans.picker.upload') : t('fastrans.picker.download')}
      okButtonProps={{
        disabled: mode === 'pick' && picked.length === 0,
        ...({ 'data-testid': 'fastrans-picker-ok' } as Record<`data-${string}`, string>),
      }}
      cancelText={t('fastrans.picker.cancel')}
      destroyOnHidden
    >
      <div data-testid="fastrans-picker">
        <RelayNote />
        <Typography.Paragraph type="secondary">
          {mode === 'pick'
            ? t('fastrans.picker.uploadTo', { path: remote })
            : t('fastrans.picker.downloadFrom', { path: remote })}
        </Typography.Paragraph>
        <Space.Compact block className="fastrans-picker-path">
          <Button
            icon={<ArrowUpOutlined />}
            aria-label={t('fastrans.picker.up')}
            disabled={!listing || listing.parent === listing.path}
            onClick={() => listing && void open(listing.parent)}
            data-testid="fastrans-picker-up"
          />
          <Input.Search
            key={listing?.path}
            defaultValue={listing?.path}
            aria-label={t('fastrans.picker.path')}
            enterButton={t('fastrans.picker.go')}
            onSearch={(v) => v && void open(v)}
            data-testid="fastrans-picker-path"
          />
        </Space.Compact>
        <Table<LocalEntry>
          size="small"
          rowKey="path"
          loading={loading}
          dataSource={rows}
          pagination={rows.length > 100 ? { pageSize: 100, showSizeChanger: false } : false}
          scroll={{ y: 360 }}
          rowSelection={{
            type: mode === 'pick' ? 'checkbox' : 'radio',
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as string[]),
          }}
          locale={{ emptyText: t('fastrans.picker.empty') }}
          columns={[
            {
              key: 'name',
              title: t('fastrans.picker.name'),
              render: (_: unknown, e) =>
                e.dir ? (
                  <Button
                    type="link"
                    icon={<FolderOutlined />}
                    onClick={() => void open(e.path)}
                    data-testid={`fastrans-local-${e.name}`}
                  >
                    {e.name}
                  </Button>
                ) : (
                  <span data-testid={`fastrans-local-${e.name}`}>
                    <FileOutlined /> {e.name}
                  </span>
                ),
            },
            {
              key: 'size',
              title: t('fastrans.picker.size'),
              width: 120,
              render: (_: unknown, e) => (e.dir ? '-' : formatSize(e.size)),
            },
          ]}
        />
        {listing && listing.total > listing.list.length && (
          <Typography.Text type="secondary">
            {t('fastrans.picker.more', { shown: listing.list.length, total: listing.total })}
          </Typography.Text>
        )}
      </div>
    </Modal>
  );
}
