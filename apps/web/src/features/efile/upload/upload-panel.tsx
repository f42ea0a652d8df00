import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { App, Button, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import {
  CaretRightOutlined,
  CloseOutlined,
  DeleteOutlined,
  FolderOpenOutlined,
  PauseOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isAreaMode } from '../../account';
import { formatSizeExact } from '../../../shared/utils/format-size';
import type { RowView } from './upload-queue';
import { CHUNK_SIZE_CHOICES_MIB, chunkSizeSetting, setChunkSizeSetting, uploadEngine } from './upload-store';
import { UploadProgressCell } from './upload-progress-cell';
import { useUploadListRows } from './use-uploads';

const STATUS_COLOR = {
  waiting: 'default',
  pause: 'orange',
  play: 'processing',
  error: 'red',
  success: 'green',
} as const;

interface Props {
  onClose: () => void;
  onOpenDir: (clusterId: string, dir: string) => void;
  maxChunkSize: number;
}

/**
 * The upload list panel (spec §2): draggable by its title, closable; file name, area (area mode only), upload
 * directory, size, status, operation. Closing it does not stop uploads; leaving the site does, as it says.
 */
export function UploadPanel({ onClose, onOpenDir, maxChunkSize }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rows = useUploadListRows();
  const [pos, setPos] = useState<{ x: number; y: number } | null>(null);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [chunkMiB, setChunkMiB] = useState(() => chunkSizeSetting(maxChunkSize) / 1024 / 1024);

  const onPointerDown = (e: ReactPointerEvent) => {
    const rect = panel.current?.getBoundingClientRect();
    if (!rect || (e.target as HTMLElement).closest('button, .ant-select')) return;
    drag.current = { dx: e.clientX - rect.left, dy: e.clientY - rect.top };
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    if (!drag.current) return;
    const x = Math.min(Math.max(0, e.clientX - drag.current.dx), window.innerWidth - 120);
    const y = Math.min(Math.max(0, e.clientY - drag.current.dy), window.innerHeight - 40);
    setPos({ x, y });
  };

  const remove = async (row: RowView) => {
    const outcome = await uploadEngine.remove(row.id).catch(() => 'deleted' as const);
    void message.success(t(outcome === 'deleted' ? 'efile.upload.deleted' : 'efile.upload.removed'));
  };

  const statusText = (r: RowView) =>
    r.status === 'error'
      ? r.errorCode && r.errorCode !== 'upload' && r.errorCode !== '0'
        ? t(`errors.${r.errorCode}`, { defaultValue: t('efile.upload.error') })
        : t('efile.upload.error')
      : t(`efile.upload.states.${r.status}`);

  return (
    <div
      ref={panel}
      className="efile-upload-panel"
      data-testid="efile-upload-panel"
      style={pos ? { left: pos.x, top: pos.y, right: 'auto', bottom: 'auto' } : undefined}
    >
      <div
        className="efile-upload-head"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
      >
        <strong>{t('efile.upload.title')}</strong>
        <Space size={4}>
          <Tooltip title={t('efile.upload.chunkSizeHint')}>
            <Select
              size="small"
              value={chunkMiB}
              aria-label={t('efile.upload.chunkSize')}
              onChange={(v) => {
                setChunkSizeSetting(v);
                setChunkMiB(v);
              }}
              options={CHUNK_SIZE_CHOICES_MIB.filter((m) => m * 1024 * 1024 <= maxChunkSize).map((m) => ({
                value: m,
                label: t('efile.upload.chunkOption', { size: m }),
              }))}
            />
          </Tooltip>
          <Button
            size="small"
            type="text"
            icon={<CloseOutlined />}
            onClick={onClose}
            aria-label={t('efile.close')}
          />
        </Space>
      </div>
      <Typography.Text type="warning" className="efile-upload-notice">
        {t('efile.upload.notice')}
      </Typography.Text>
      <Table<RowView>
        size="small"
        rowKey="id"
        dataSource={rows}
        pagination={false}
        scroll={{ y: 280 }}
        locale={{ emptyText: t('efile.upload.empty') }}
        columns={[
          { key: 'name', title: t('efile.upload.columns.name'), dataIndex: 'name', ellipsis: true },
          ...(isAreaMode()
            ? [{ key: 'area', title: t('efile.upload.columns.area'), dataIndex: 'clusterName', width: 110 }]
            : []),
          { key: 'dir', title: t('efile.upload.columns.dir'), dataIndex: 'toPath', ellipsis: true },
          {
            key: 'size',
            title: t('efile.upload.columns.size'),
            width: 100,
            // An upload's total: the exact formatter (spec §9).
            render: (_, r) => formatSizeExact(r.size),
          },
          {
            key: 'status',
            title: t('efile.upload.columns.status'),
            width: 190,
            render: (_, r) => (
              <div data-testid="efile-upload-status" data-status={r.status}>
                <Tag color={STATUS_COLOR[r.status]}>{statusText(r)}</Tag>
                <UploadProgressCell rowId={r.id} />
              </div>
            ),
          },
          {
            key: 'op',
            title: t('efile.upload.columns.operation'),
            width: 130,
            render: (_, r) => (
              <Space size={0}>
                {(r.status === 'play' || r.status === 'waiting') && (
                  <Button
                    size="small"
                    type="text"
                    icon={<PauseOutlined />}
                    aria-label={t('efile.upload.pause')}
                    onClick={() => uploadEngine.pause(r.id)}
                  />
                )}
                {r.status === 'pause' && (
                  <Button
                    size="small"
                    type="text"
                    icon={<CaretRightOutlined />}
                    aria-label={t('efile.upload.resume')}
                    onClick={() => uploadEngine.resume(r.id)}
                  />
                )}
                {r.status === 'error' && r.fileCount > 0 && (
                  <Tooltip title={t('efile.upload.retry')}>
                    <Button
                      size="small"
                      type="text"
                      icon={<RedoOutlined />}
                      aria-label={t('efile.upload.retry')}
                      data-testid="efile-upload-retry"
                      onClick={() => uploadEngine.retry(r.id)}
                    />
                  </Tooltip>
                )}
                <Tooltip title={t('efile.upload.openDir')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<FolderOpenOutlined />}
                    aria-label={t('efile.upload.openDir')}
                    onClick={() => onOpenDir(r.clusterId, r.toPath)}
                  />
                </Tooltip>
                <Popconfirm
                  title={t('efile.upload.deleteConfirm', { name: r.name })}
                  okText={t('efile.ok')}
                  cancelText={t('efile.cancel')}
                  onConfirm={() => remove(r)}
                >
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('efile.upload.delete')}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
