import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '@hpc/contracts';
import { pick } from '../../../shared/i18n/languages';
import { ClusterServiceAlert } from '../../clusters';
import { directoryKey, useDirectory } from '../hooks/use-directory';
import { useEfileClient } from '../hooks/use-efile-client';
import { useEfileLocation } from '../hooks/use-efile-location';
import { useColumns } from '../hooks/use-columns';
import { useFileActions, type Dialog } from '../hooks/use-file-actions';
import { useKeyboard } from '../hooks/use-keyboard';
import { useFullscreen } from '../hooks/use-fullscreen';
import { runningOperation, useRunningOperation } from '../hooks/running-operation';
import { createEfileApi } from '../api/efile.api';
import { homeDirectory, userHomes } from '../lib/home-places';
import { parentPath } from '../lib/paths';
import { useActiveUploadCount, useUploadLanded } from '../upload/use-uploads';
import { UploadPanel } from '../upload/upload-panel';
import { ContextMenu, type ContextAction } from './context-menu';
import { FileDialogs } from './file-dialogs';
import { FilePagination } from './file-pagination';
import { FileTable } from './file-table';
import { FileToolbar } from './file-toolbar';
import { OperationProgressBar } from './operation-progress';
import { PathBar } from './path-bar';
import { UploadDropZone, type UploadPickers } from './upload-drop-zone';

/** The E-File screen: toolbar, path bar, the page of the folder, pagination, upload panel and dialogs. */
export function FileManager() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { loc, update, goTo } = useEfileLocation();
  const efile = useEfileClient(loc.cluster, i18n.language);
  const { api, init, clusterId } = efile;
  const path = loc.path ?? init?.homePath ?? null;
  const dir = useDirectory(api, loc, path);
  const { visible, toggle } = useColumns();
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const operation = useRunningOperation();
  const operationApi = useMemo(
    () => (operation ? createEfileApi(operation.clusterId, operation.baseUrl) : null),
    [operation],
  );
  const [panelOpen, setPanelOpen] = useState(false);
  const activeUploads = useActiveUploadCount();
  const root = useRef<HTMLDivElement>(null);
  const pickers = useRef<UploadPickers>(null);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(root);

  const rows = useMemo(() => dir.data?.list ?? [], [dir.data]);
  const selectedEntries = useMemo(() => rows.filter((r) => selected.includes(r.path)), [rows, selected]);
  useEffect(
    () => setSelected([]),
    [path, loc.pageNum, loc.pageSize, loc.sort, loc.order, loc.keyword, clusterId],
  );

  const refresh = useCallback(() => {
    void qc.invalidateQueries({ queryKey: directoryKey(clusterId) });
  }, [qc, clusterId]);
  useUploadLanded(clusterId, path, refresh);

  const roots = init?.roots ?? [];
  const canGoUp = path !== null && !roots.includes(path) && path !== '/';
  const up = useCallback(() => {
    if (path && canGoUp) goTo(parentPath(path));
  }, [path, canGoUp, goTo]);

  const actions = useFileActions({
    api,
    selected: selectedEntries,
    goTo,
    refresh,
    clearSelection: () => setSelected([]),
    setDialog,
  });

  const onAction = (a: ContextAction | 'delete') => {
    if (a === 'open') {
      const only = selectedEntries[0];
      if (only) void actions.open(only);
    } else if (a === 'delete') actions.remove();
    else if (a === 'download') void actions.download();
    else if (a === 'rename') actions.rename();
    else if (a === 'copy' || a === 'move') actions.copyMove(a);
    else actions.share();
  };

  const keys = useMemo(
    () => ({
      onDelete: actions.remove,
      onRename: actions.rename,
      onOpen: () => {
        const only = selectedEntries[0];
        if (selectedEntries.length === 1 && only) void actions.open(only);
      },
      onUp: up,
      onSelectAll: () => setSelected(rows.map((r) => r.path)),
    }),
    [actions, selectedEntries, up, rows],
  );
  useKeyboard(dialog === null && menuAt === null, keys);

  const onOperationEnd = useCallback(
    (op: { status: string; errorCode: string | null } | null) => {
      runningOperation.set(null);
      if (op?.status === 'done') void message.success(t('efile.copyMove.done'));
      else if (op?.status === 'failed') void message.error(t(`errors.${op.errorCode ?? '0001'}`));
      else if (op?.status === 'cancelled') void message.info(t('efile.copyMove.cancelled'));
      refresh();
    },
    [message, t, refresh],
  );

  if (efile.clustersLoading) return <Spin className="efile-loading" />;
  if (efile.clusters.length === 0) return <Alert type="info" showIcon title={t('efile.noCluster')} />;

  const current = efile.clusters.find((c) => c.clusterId === clusterId);
  const homeDir = homeDirectory(current?.params.default_user_home_path, init);
  const homes = userHomes(
    efile.clusters.map((c) => ({
      clusterId: c.clusterId,
      centre: pick(i18n.language, c.centerName, c.centerNameEn),
      homePath: c.homePath,
    })),
    { clusterId, homePath: init?.homePath ?? null },
  );
  // Granted folders other than the home and the home root are the share directories.
  const shareRoots = roots.filter((r) => r !== init?.homePath && r !== homeDir);

  return (
    <div ref={root} className={`efile ${fullscreen ? 'efile-fullscreen' : ''}`} data-testid="efile">
      <ClusterServiceAlert kind="efile" />
      {efile.service.error && efile.clusters.length > 1 && (
        <Alert
          type="warning"
          showIcon
          title={t(`clusters.${efile.service.error.messageKey}`, {
            centerName: efile.clusterName,
            service: 'E-File',
          })}
        />
      )}
      <FileToolbar
        clusters={efile.clusters.map((c) => ({
          id: c.clusterId,
          name: pick(i18n.language, c.centerName, c.centerNameEn),
        }))}
        clusterId={clusterId}
        onCluster={(id) => update({ cluster: id, path: null, pageNum: 1, keyword: '' }, true)}
        homeDir={homeDir}
        userHomes={homes}
        shareRoots={shareRoots}
        onGo={(p, c) => goTo(p, c)}
        onMyShares={() => setDialog({ kind: 'myShares' })}
        onUploadFiles={() => pickers.current?.files()}
        onUploadFolder={() => pickers.current?.folder()}
        onCreate={(type) => setDialog({ kind: 'create', type })}
        onAction={onAction}
        columns={visible}
        onToggleColumn={toggle}
        uploadCount={activeUploads}
        onUploadList={() => setPanelOpen((o) => !o)}
        fullscreen={fullscreen}
        onFullscreen={toggleFullscreen}
      />
      {path && (
        <PathBar
          path={path}
          roots={roots}
          keyword={loc.keyword}
          onGo={(p) => goTo(p)}
          onUp={canGoUp ? up : null}
          onRefresh={refresh}
          onSearch={(keyword) => update({ keyword, pageNum: 1 })}
          onInvalidPath={() => void message.warning(t('efile.goto.invalid'))}
        />
      )}
      {operation && operationApi && (
        <OperationProgressBar
          api={operationApi}
          operationId={operation.id}
          mode={operation.mode}
          onEnd={onOperationEnd}
        />
      )}
      {api && init && path && (
        <UploadDropZone
          ref={pickers}
          api={api}
          init={init}
          target={{
            clusterId: api.clusterId,
            clusterName: efile.clusterName,
            baseUrl: api.baseUrl,
            dir: path,
          }}
          onQueued={() => setPanelOpen(true)}
        >
          <FileTable
            rows={rows}
            loading={dir.isLoading || (dir.isFetching && dir.isPlaceholderData)}
            columns={visible}
            sort={loc.sort}
            order={loc.order}
            selected={selected}
            onSelect={setSelected}
            onSort={(sort, order) => update({ sort, order, pageNum: 1 })}
            onOpen={(e: FileEntry) => void actions.open(e)}
            onContextMenu={(_e, x, y) => setMenuAt({ x, y })}
          />
        </UploadDropZone>
      )}
      {dir.data && (
        <FilePagination
          total={dir.data.total}
          pageNum={loc.pageNum}
          pageSize={loc.pageSize}
          onChange={(pageNum, pageSize) => update({ pageNum, pageSize })}
        />
      )}
      <ContextMenu at={menuAt} onAction={onAction} onClose={() => setMenuAt(null)} />
      {panelOpen && (
        <UploadPanel
          onClose={() => setPanelOpen(false)}
          onOpenDir={(c, d) => goTo(d, c)}
          maxChunkSize={init?.maxChunkSize ?? 1024 * 1024}
        />
      )}
      {api && path && (
        <FileDialogs
          api={api}
          dir={path}
          dialog={dialog}
          maxShareDays={init?.shareMaxValidDays ?? 30}
          onClose={() => setDialog(null)}
          refresh={refresh}
          onOperation={(id, mode) => {
            setDialog(null);
            runningOperation.set({ id, mode, clusterId: api.clusterId, baseUrl: api.baseUrl });
          }}
        />
      )}
    </div>
  );
}
