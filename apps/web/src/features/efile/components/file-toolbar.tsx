import { memo, useRef } from 'react';
import { Badge, Button, Checkbox, Dropdown, Select, Space, Tooltip } from 'antd';
import {
  CloudUploadOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FolderAddOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  HomeOutlined,
  UserOutlined,
  ScissorOutlined,
  SettingOutlined,
  ShareAltOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALL_COLUMNS, type ColumnKey } from '../hooks/use-columns';
import type { UserHome } from '../lib/home-places';

interface Props {
  clusters: { id: string; name: string }[];
  clusterId: string | null;
  onCluster: (id: string) => void;
  /** Target of "Home directory" (see lib/home-places). */
  homeDir: string | null;
  /** The user's home on each of their centres ("User home directory"). */
  userHomes: UserHome[];
  shareRoots: string[];
  onGo: (path: string, clusterId?: string) => void;
  onMyShares: () => void;
  onUploadFiles: () => void;
  onUploadFolder: () => void;
  onCreate: (type: 'file' | 'folder') => void;
  onAction: (a: 'download' | 'rename' | 'copy' | 'move' | 'delete' | 'share') => void;
  columns: ColumnKey[];
  onToggleColumn: (c: ColumnKey, on: boolean) => void;
  uploadCount: number;
  onUploadList: () => void;
  fullscreen: boolean;
  onFullscreen: () => void;
  /** No working file service on this centre (or not known yet): only the centre switch and the view stay enabled. */
  disabled?: boolean;
  /** More buttons after the selection's actions (fast transfer). */
  extra?: React.ReactNode;
}

/**
 * The file manager's toolbar: cluster switcher and places with the view options on the first row, upload, create
 * and the selection's actions on the second (one row for all wrapped at an arbitrary button on a laptop screen).
 * Memoized: nothing of it changes when the page of the folder does.
 */
export const FileToolbar = memo(function FileToolbar(p: Props) {
  // The menu entry that opens the name dialog disappears with the menu: the focus goes back to the New button first,
  // so that the dialog hands it back there when it closes (not to the top of the page).
  const createButton = useRef<HTMLButtonElement>(null);
  const create = (type: 'folder' | 'file') => {
    createButton.current?.focus();
    p.onCreate(type);
  };
  const { t } = useTranslation();
  const off = p.disabled ?? false;
  const btn = (key: Parameters<Props['onAction']>[0], icon: React.ReactNode, danger = false) => (
    <Button
      key={key}
      icon={icon}
      danger={danger}
      disabled={off}
      onClick={() => p.onAction(key)}
      data-testid={`efile-action-${key}`}
    >
      {t(`efile.actions.${key}`)}
    </Button>
  );
  return (
    <div className="efile-toolbar">
      <div className="efile-toolbar-row">
        <Space wrap size={[6, 6]}>
          {p.clusters.length > 1 && (
            <Select
              className="efile-cluster"
              value={p.clusterId ?? undefined}
              onChange={p.onCluster}
              options={p.clusters.map((c) => ({ value: c.id, label: c.name }))}
              aria-label={t('efile.cluster')}
              data-testid="efile-cluster"
            />
          )}
          <Tooltip title={p.homeDir}>
            <Button
              icon={<HomeOutlined />}
              disabled={off || !p.homeDir}
              onClick={() => p.homeDir && p.onGo(p.homeDir)}
              data-testid="efile-home"
            >
              {t('efile.places.home')}
            </Button>
          </Tooltip>
          {p.userHomes.length <= 1 ? (
            <Tooltip title={p.userHomes[0]?.path}>
              <Button
                icon={<UserOutlined />}
                disabled={off || p.userHomes.length === 0}
                onClick={() => p.userHomes[0] && p.onGo(p.userHomes[0].path, p.userHomes[0].clusterId)}
                data-testid="efile-user-home"
              >
                {t('efile.places.userHome')}
              </Button>
            </Tooltip>
          ) : (
            <Dropdown
              // Hover for the mouse; Enter or Space for the keyboard, which then moves into the menu.
              trigger={['hover', 'click']}
              autoFocus
              menu={{
                items: p.userHomes.map((h) => ({
                  key: h.clusterId,
                  label: t('efile.places.userHomeOn', { centre: h.centre, path: h.path }),
                })),
                selectable: true,
                selectedKeys: p.clusterId ? [p.clusterId] : [],
                onClick: (i) => {
                  const h = p.userHomes.find((x) => x.clusterId === i.key);
                  if (h) p.onGo(h.path, h.clusterId);
                },
              }}
            >
              <Button icon={<UserOutlined />} disabled={off} data-testid="efile-user-home">
                {t('efile.places.userHome')}
              </Button>
            </Dropdown>
          )}
          {p.shareRoots.length === 1 && (
            <Button icon={<TeamOutlined />} disabled={off} onClick={() => p.onGo(p.shareRoots[0]!)}>
              {t('efile.places.share')}
            </Button>
          )}
          {p.shareRoots.length > 1 && (
            <Dropdown
              // Hover for the mouse; Enter or Space for the keyboard, which then moves into the menu.
              trigger={['hover', 'click']}
              autoFocus
              menu={{ items: p.shareRoots.map((r) => ({ key: r, label: r })), onClick: (i) => p.onGo(i.key) }}
            >
              <Button icon={<TeamOutlined />} disabled={off}>
                {t('efile.places.share')}
              </Button>
            </Dropdown>
          )}
          <Button
            icon={<ShareAltOutlined />}
            disabled={off}
            onClick={p.onMyShares}
            data-testid="efile-my-shares-button"
          >
            {t('efile.places.myShares')}
          </Button>
        </Space>
        <Space size={6}>
          <Badge count={p.uploadCount} size="small">
            <Button
              icon={<CloudUploadOutlined />}
              onClick={p.onUploadList}
              data-testid="efile-upload-list-button"
            >
              {t('efile.upload.list')}
            </Button>
          </Badge>
          <Dropdown
            trigger={['click']}
            popupRender={() => (
              <div className="efile-columns-menu">
                {ALL_COLUMNS.map((c) => (
                  <Checkbox
                    key={c}
                    checked={p.columns.includes(c)}
                    disabled={c === 'name'}
                    onChange={(e) => p.onToggleColumn(c, e.target.checked)}
                  >
                    {t(`efile.columns.${c}`)}
                  </Checkbox>
                ))}
              </div>
            )}
          >
            <Button icon={<SettingOutlined />} aria-label={t('efile.columns.custom')}>
              <UnorderedListOutlined />
            </Button>
          </Dropdown>
          <Tooltip title={t(p.fullscreen ? 'efile.exitFullscreen' : 'efile.fullscreen')}>
            <Button
              icon={p.fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={p.onFullscreen}
              aria-label={t(p.fullscreen ? 'efile.exitFullscreen' : 'efile.fullscreen')}
            />
          </Tooltip>
        </Space>
      </div>
      <Space wrap size={[6, 6]}>
        <Dropdown
          // Hover for the mouse; Enter or Space for the keyboard, which then moves into the menu.
          trigger={['hover', 'click']}
          autoFocus
          menu={{
            items: [
              { key: 'files', label: t('efile.upload.files'), onClick: p.onUploadFiles },
              { key: 'folder', label: t('efile.upload.folder'), onClick: p.onUploadFolder },
            ],
          }}
        >
          <Button type="primary" icon={<UploadOutlined />} disabled={off} data-testid="efile-upload-button">
            {t('efile.upload.button')}
          </Button>
        </Dropdown>
        <Dropdown
          // Hover for the mouse; Enter or Space for the keyboard, which then moves into the menu.
          trigger={['hover', 'click']}
          autoFocus
          menu={{
            items: [
              { key: 'folder', label: t('efile.create.folder'), onClick: () => create('folder') },
              { key: 'file', label: t('efile.create.file'), onClick: () => create('file') },
            ],
          }}
        >
          <Button
            ref={createButton}
            icon={<FolderAddOutlined />}
            disabled={off}
            data-testid="efile-create-button"
          >
            {t('efile.create.button')}
          </Button>
        </Dropdown>
        {btn('download', <DownloadOutlined />)}
        {btn('rename', <EditOutlined />)}
        {btn('copy', <CopyOutlined />)}
        {btn('move', <ScissorOutlined />)}
        {btn('share', <ShareAltOutlined />)}
        {btn('delete', <DeleteOutlined />, true)}
        {p.extra}
      </Space>
    </div>
  );
});
