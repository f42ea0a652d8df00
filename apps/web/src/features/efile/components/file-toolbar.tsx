import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Checkbox, Dropdown, Select, Space, Tooltip } from 'antd';
import {
  CloudUploadOutlined,
  FolderAddOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  HomeOutlined,
  UserOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { ActionView } from '../actions/use-efile-actions';
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
  /**
   * The registry's actions as they stand (actions/): the places' buttons (My shares), the Upload and New menus and
   * the selection's buttons.
   */
  actions: ActionView[];
  onRun: (id: string) => void;
  columns: ColumnKey[];
  onToggleColumn: (c: ColumnKey, on: boolean) => void;
  uploadCount: number;
  onUploadList: () => void;
  fullscreen: boolean;
  onFullscreen: () => void;
  /**
   * No working file service on this centre (or not known yet), or the account is deactivated there: the places of
   * this centre are disabled; the centre switch and the view stay enabled (the actions say for themselves).
   */
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
  const { t } = useTranslation();
  const off = p.disabled ?? false;
  const group = (g: ActionView['toolbar']) => p.actions.filter((a) => a.toolbar === g);
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
                  // The homes on other centres still lead somewhere that works.
                  disabled: off && h.clusterId === p.clusterId,
                })),
                selectable: true,
                selectedKeys: p.clusterId ? [p.clusterId] : [],
                onClick: (i) => {
                  const h = p.userHomes.find((x) => x.clusterId === i.key);
                  if (h) p.onGo(h.path, h.clusterId);
                },
              }}
            >
              <Button
                icon={<UserOutlined />}
                disabled={off && p.userHomes.every((h) => h.clusterId === p.clusterId)}
                data-testid="efile-user-home"
              >
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
          {group('places').map((a) => (
            <ActionButton key={a.id} action={a} onRun={p.onRun} />
          ))}
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
        <ActionMenu
          actions={group('upload')}
          onRun={p.onRun}
          label={t('efile.upload.button')}
          icon={<UploadOutlined />}
          primary
          testId="efile-upload-button"
        />
        <ActionMenu
          actions={group('create')}
          onRun={p.onRun}
          label={t('efile.create.button')}
          icon={<FolderAddOutlined />}
          testId="efile-create-button"
        />
        {group('selection').map((a) => (
          <ActionButton key={a.id} action={a} onRun={p.onRun} />
        ))}
        {p.extra}
      </Space>
    </div>
  );
});

/** One of the registry's actions as a toolbar button: its icon alone with a tooltip when `iconOnly`. */
function ActionButton({ action: a, onRun }: { action: ActionView; onRun: (id: string) => void }) {
  const { t } = useTranslation();
  return a.iconOnly ? (
    <Tooltip title={t(a.labelKey)}>
      <Button
        icon={a.icon}
        aria-label={t(a.labelKey)}
        disabled={a.disabled}
        onClick={() => onRun(a.id)}
        data-testid={`efile-action-${a.id}`}
      />
    </Tooltip>
  ) : (
    <Button
      icon={a.icon}
      danger={a.danger}
      disabled={a.disabled}
      onClick={() => onRun(a.id)}
      data-testid={`efile-action-${a.id}`}
    >
      {t(a.labelKey)}
    </Button>
  );
}

/**
 * A toolbar button whose menu holds a group of the registry's actions (Upload, New). Disabled when none of them can
 * run. Hover for the mouse; Enter or Space for the keyboard, which then moves into the menu.
 */
function ActionMenu(p: {
  actions: ActionView[];
  onRun: (id: string) => void;
  label: string;
  icon: React.ReactNode;
  primary?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  // The menu entry that opens a dialog disappears with the menu: the focus goes back to this button first, so that
  // the dialog hands it back here when it closes (not to the top of the page).
  const button = useRef<HTMLButtonElement>(null);
  if (p.actions.length === 0) return null;
  return (
    <Dropdown
      trigger={['hover', 'click']}
      autoFocus
      menu={{
        items: p.actions.map((a) => ({
          key: a.id,
          label: t(a.labelKey),
          icon: a.icon,
          disabled: a.disabled,
        })),
        onClick: (i) => {
          button.current?.focus();
          p.onRun(i.key);
        },
      }}
    >
      <Button
        ref={button}
        type={p.primary ? 'primary' : 'default'}
        icon={p.icon}
        disabled={p.actions.every((a) => a.disabled)}
        data-testid={p.testId}
      >
        {p.label}
      </Button>
    </Dropdown>
  );
}
