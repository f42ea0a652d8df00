import { Badge, Button, Drawer, Empty, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import {
  CloseCircleOutlined,
  CloudDownloadOutlined,
  CloudUploadOutlined,
  FolderOpenOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FastransTaskState as S } from '@hpc/contracts';
import { formatSize, formatSpeed } from '../../shared/utils/format-size';
import type { FastransTask } from './fastrans-client';
import { RelayNote } from './relay-note';
import { taskErrorText } from './refusal-text';

/** The names of spec §4's states 0-13, in order: the catalogue's keys `fastrans.state.<name>`. */
export const STATE_NAMES = Object.keys(S) as (keyof typeof S)[];

const RUNNING: number[] = [S.todo, S.connectingProxy, S.waitLoginInfo, S.ready, S.recover, S.started];
const PAUSED: number[] = [S.stopping, S.stopped];
const FAILED: number[] = [S.failed, S.authFailed, S.proxyClosed];

const stateColor = (s: number) =>
  s === S.successful
    ? 'success'
    : FAILED.includes(s)
      ? 'error'
      : PAUSED.includes(s)
        ? 'warning'
        : 'processing';

interface Props {
  tasks: FastransTask[];
  via: 'direct' | 'relay' | null;
  onClose: () => void;
  onControl: (id: string, control: 'pause' | 'resume' | 'cancel' | 'retry') => void;
  /** Opens a task's remote folder in E-File. */
  onOpenRemote: (dir: string) => void;
}

/**
 * The fast-transfer task list (spec §4 states, issue 11 §3): from `open_trans_list`, kept current by the client's
 * events (or, through the relay, by asking every second): state, files, progress, speed, pause, resume, cancel.
 */
export function FastransTaskList({ tasks, via, onClose, onControl, onOpenRemote }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer
      open
      size="large"
      rootClassName="fastrans-drawer"
      title={t('fastrans.tasks.title')}
      onClose={onClose}
      extra={
        via && (
          <Tag color={via === 'direct' ? 'blue' : 'purple'} data-testid="fastrans-via">
            {t(`fastrans.via.${via}`)}
          </Tag>
        )
      }
    >
      <RelayNote />
      <div data-testid="fastrans-tasks">
        {tasks.length === 0 ? (
          <Empty description={t('fastrans.tasks.empty')} />
        ) : (
          <Table<FastransTask>
            size="small"
            tableLayout="fixed"
            rowKey="task_id"
            dataSource={tasks}
            pagination={tasks.length > 20 ? { pageSize: 20 } : false}
            onRow={(r) =>
              ({
                'data-testid': `fastrans-task-${r.task_id}`,
                'data-state': r.state,
                'data-error': r.error ?? '',
              }) as object
            }
            columns={[
              {
                key: 'what',
                title: t('fastrans.tasks.what'),
                render: (_: unknown, r) => (
                  <div>
                    <div>
                      <Space size={4}>
                        {r.kind === 'upload' ? <CloudUploadOutlined /> : <CloudDownloadOutlined />}
                        <Typography.Text strong>{t(`fastrans.kind.${r.kind}`)}</Typography.Text>
                      </Space>
                    </div>
                    <Typography.Text
                      type="secondary"
                      ellipsis={{ tooltip: true }}
                      className="fastrans-task-path"
                    >
                      {r.kind === 'upload'
                        ? t('fastrans.tasks.fromTo', { from: r.local, to: r.remote })
                        : t('fastrans.tasks.fromTo', { from: r.remote, to: r.local })}
                    </Typography.Text>
                  </div>
                ),
              },
              {
                key: 'state',
                title: t('fastrans.tasks.state'),
                width: 120,
                render: (_: unknown, r) => (
                  <Tooltip
                    title={
                      r.error ? t('fastrans.tasks.error', { error: taskErrorText(r.error, t) }) : undefined
                    }
                  >
                    <Badge
                      status={stateColor(r.state)}
                      text={t(`fastrans.state.${STATE_NAMES[r.state] ?? 'unknown'}`)}
                      data-testid="fastrans-task-state"
                    />
                  </Tooltip>
                ),
              },
              {
                key: 'progress',
                title: t('fastrans.tasks.progress'),
                width: 210,
                render: (_: unknown, r) => (
                  <div>
                    <Progress
                      aria-label={t('fastrans.tasks.progress')}
                      size="small"
                      percent={
                        r.bytesTotal
                          ? Math.floor((r.bytesDone * 100) / r.bytesTotal)
                          : r.state === S.successful
                            ? 100
                            : 0
                      }
                      status={
                        FAILED.includes(r.state)
                          ? 'exception'
                          : r.state === S.successful
                            ? 'success'
                            : 'active'
                      }
                    />
                    <Typography.Text type="secondary" className="fastrans-task-numbers">
                      {t(r.listing ? 'fastrans.tasks.filesListing' : 'fastrans.tasks.files', {
                        done: r.count,
                        count: r.files,
                      })}
                      {' · '}
                      {formatSize(r.bytesDone)} / {formatSize(r.bytesTotal)}
                      {RUNNING.includes(r.state) && r.speed > 0 ? ` · ${formatSpeed(r.speed)}` : ''}
                    </Typography.Text>
                  </div>
                ),
              },
              {
                key: 'ops',
                title: t('fastrans.tasks.operation'),
                width: 150,
                render: (_: unknown, r) => (
                  <Space size={0}>
                    {RUNNING.includes(r.state) && (
                      <Tooltip title={t('fastrans.tasks.pause')}>
                        <Button
                          type="text"
                          icon={<PauseCircleOutlined />}
                          aria-label={t('fastrans.tasks.pause')}
                          onClick={() => onControl(r.task_id, 'pause')}
                        />
                      </Tooltip>
                    )}
                    {PAUSED.includes(r.state) && (
                      <Tooltip title={t('fastrans.tasks.resume')}>
                        <Button
                          type="text"
                          icon={<PlayCircleOutlined />}
                          aria-label={t('fastrans.tasks.resume')}
                          onClick={() => onControl(r.task_id, 'resume')}
                        />
                      </Tooltip>
                    )}
                    {FAILED.includes(r.state) && r.error !== 'cancelled' && (
                      <Tooltip title={t('fastrans.tasks.retry')}>
                        <Button
                          type="text"
                          icon={<RedoOutlined />}
                          aria-label={t('fastrans.tasks.retry')}
                          onClick={() => onControl(r.task_id, 'retry')}
                        />
                      </Tooltip>
                    )}
                    {r.state !== S.successful && r.state !== S.failed && (
                      <Tooltip title={t('fastrans.tasks.cancel')}>
                        <Button
                          type="text"
                          danger
                          icon={<CloseCircleOutlined />}
                          aria-label={t('fastrans.tasks.cancel')}
                          onClick={() => onControl(r.task_id, 'cancel')}
                        />
                      </Tooltip>
                    )}
                    {r.kind === 'upload' && (
                      <Tooltip title={t('fastrans.tasks.open')}>
                        <Button
                          type="text"
                          icon={<FolderOpenOutlined />}
                          aria-label={t('fastrans.tasks.open')}
                          onClick={() => onOpenRemote(r.remote)}
                        />
                      </Tooltip>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </div>
    </Drawer>
  );
}
