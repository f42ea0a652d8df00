import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommonCodes, type FileEntry } from '@hpc/contracts';
import { pick } from '../../../shared/i18n/languages';
import { ClusterUnavailable } from '../../clusters';
import { directoryKey, useDirectory, usePrefetchNextPage } from '../hooks/use-directory';
import { useEfileClient } from '../hooks/use-efile-client';
import { folderPatch, useEfileLocation, type EfileLocation } from '../hooks/use-efile-location';
import { useColumns } from '../hooks/use-columns';
import { useDelayed } from '../hooks/use-delayed';
import { useFileActions, type Dialog } from '../hooks/use-file-actions';
import { useKeyboard } from '../hooks/use-keyboard';
import { useFullscreen } from '../hooks/use-fullscreen';
import { useStableCallback } from '../hooks/use-stable-callback';
import { runningOperation, useRunningOperation } from '../hooks/running-operation';
import { createEfileApi } from '../api/efile.api';
import { homeDirectory, userHomes } from '../lib/home-places';
import { parentPath } from '../lib/paths';
import { useActiveUploadCount, useUploadLanded } from '../upload/use-uploads';
import { FastransBar } from '../fastrans/fastrans-bar';
import { UploadPanel } from '../upload/upload-panel';
import { ContextMenu, type ContextAction } from './context-menu';
import { FileDialogs } from './file-dialogs';
import { FilePagination } from './file-pagination';
import { FileTable } from './file-table';
import { FileToolbar } from './file-toolbar';
import { FolderError } from './folder-error';
import { OperationProgressBar } from './operation-progress';
import { PathBar } from './path-bar';
import { UploadDropZone, type UploadPickers } from './upload-drop-zone';

const NONE: string[] = [];

/**
 * The E-File screen: toolbar, path bar, the page of the folder, pagination, upload panel and dialogs. Paging
 * changes the address, which re-renders this component; its children get stable props (memoized values,
 * {@link useStableCallback}) so that only the table and the pagination render again, and the table only once its
 * rows are there.
 */
export function FileManager() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { loc, update } = useEfileLocation();
  const efile = useEfileClient(loc.cluster, i18n.language);
  const { api, init, clusterId } = efile;
  const path = loc.path ?? init?.homePath ?? null;
  const dir = useDirectory(api, loc, path);
  usePrefetchNextPage(api, loc, path, dir.isPlaceholderData ? undefined : dir.data?.total);
  const { visible, toggle } = useColumns();
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
  useFocusReturn(root, dialog !== null);
  const pickers = useRef<UploadPickers>(null);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(root);

  // A selection belongs to the page it was made on. Keyed by that page, a new page starts with none without the
  // extra render and commit of the whole screen that clearing it in an effect cost; it is dropped during this
  // render (React re-runs only this function) so that coming back to the page does not bring it back.
  const view = JSON.stringify([clusterId, path, loc.pageNum, loc.pageSize, loc.sort, loc.order, loc.keyword]);
  const [selection, setSelection] = useState({ view, paths: NONE });
  if (selection.view !== view && selection.paths.length > 0) setSelection({ view, paths: NONE });
  const selected = selection.view === view ? selection.paths : NONE;
  const setSelected = useStableCallback((paths: string[]) => setSelection({ view, paths }));

  const rows = useMemo(() => dir.data?.list ?? [], [dir.data]);
  const selectedEntries = useMemo(() => rows.filter((r) => selected.includes(r.path)), [rows, selected]);

  /** Changes the address; the route's loader (efile.loader.ts) asks for the new listing at the navigation. */
  const show = useStableCallback((patch: Partial<EfileLocation>, push?: boolean) => update(patch, push));
  const goTo = useStableCallback((to: string, cluster?: string) => show(folderPatch(to, cluster), true));

  const refresh = useCallback(() => {
    void qc.invalidateQueries({ queryKey: directoryKey(clusterId) });
  }, [qc, clusterId]);
  // After a failure: the folder and the cluster's initInfo, whichever failed.
  const retry = useCallback(() => {
    void qc.invalidateQueries({ queryKey: ['efile', clusterId] });
  }, [qc, clusterId]);
  useUploadLanded(clusterId, path, refresh);

  const roots = useMemo(() => init?.roots ?? [], [init]);
  const canGoUp = path !== null && !roots.includes(path) && path !== '/';
  const up = useStableCallback(() => {
    if (path && canGoUp) goTo(parentPath(path));
  });

  const clearSelection = useStableCallback(() => setSelected([]));
  const actions = useFileActions({
    api,
    selected: selectedEntries,
    goTo,
    refresh,
    clearSelection,
    setDialog,
  });

  const onAction = useStableCallback((a: ContextAction | 'delete') => {
    if (a === 'open') {
      const only = selectedEntries[0];
      if (only) void actions.open(only);
    } else if (a === 'delete') actions.remove();
    else if (a === 'download') void actions.download();
    else if (a === 'rename') actions.rename();
    else if (a === 'copy' || a === 'move') actions.copyMove(a);
    else actions.share();
  });

  useKeyboard(dialog === null && menuAt === null, {
    onDelete: () => onAction('delete'),
    onRename: () => onAction('rename'),
    onOpen: () => {
      if (selectedEntries.length === 1) onAction('open');
    },
    onUp: up,
    onSelectAll: () => setSelected(rows.map((r) => r.path)),
  });

  const onOperationEnd = useCallback(
    (op: { status: string; errorCode: string | null } | null) => {
      runningOperation.set(null);
      if (op?.status === 'done') void message.success(t('efile.copyMove.done'));
      else if (op?.status === 'failed')
        void message.error(t(`errors.${op.errorCode ?? CommonCodes.unknown}`));
      else if (op?.status === 'cancelled') void message.info(t('efile.copyMove.cancelled'));
      refresh();
    },
    [message, t, refresh],
  );

  // Stable props of the memoized toolbar, path bar, table and pagination.
  const clusterChoices = useMemo(
    () =>
      efile.clusters.map((c) => ({
        id: c.clusterId,
        name: pick(i18n.language, c.centerName, c.centerNameEn),
      })),
    [efile.clusters, i18n.language],
  );
  const current = efile.clusters.find((c) => c.clusterId === clusterId);
  const homeDir = homeDirectory(current?.params.default_user_home_path, init);
  const homes = useMemo(
    () =>
      userHomes(
        efile.clusters.map((c) => ({
          clusterId: c.clusterId,
          centre: pick(i18n.language, c.centerName, c.centerNameEn),
          homePath: c.homePath,
        })),
        { clusterId, homePath: init?.homePath ?? null },
      ),
    [efile.clusters, i18n.language, clusterId, init],
  );
  // Granted folders other than the home and the home root are the share directories.
  const shareRoots = useMemo(
    () => roots.filter((r) => r !== init?.homePath && r !== homeDir),
    [roots, init, homeDir],
  );
  const onCluster = useStableCallback((id: string) =>
    update({ cluster: id, path: null, pageNum: 1, keyword: '' }, true),
  );
  const onMyShares = useCallback(() => setDialog({ kind: 'myShares' }), []);
  const onUploadFiles = useCallback(() => pickers.current?.files(), []);
  const onUploadFolder = useCallback(() => pickers.current?.folder(), []);
  const onCreate = useCallback((type: 'file' | 'folder') => setDialog({ kind: 'create', type }), []);
  const onUploadList = useCallback(() => setPanelOpen((o) => !o), []);
  const onSearch = useStableCallback((keyword: string) => show({ keyword, pageNum: 1 }));
  const onInvalidPath = useStableCallback(() => void message.warning(t('efile.goto.invalid')));
  const onSort = useStableCallback((sort: EfileLocation['sort'], order: EfileLocation['order']) =>
    show({ sort, order, pageNum: 1 }),
  );
  const onOpen = useStableCallback((e: FileEntry) => void actions.open(e));
  const onContextMenu = useCallback((_e: FileEntry, x: number, y: number) => setMenuAt({ x, y }), []);
  const onPage = useStableCallback((pageNum: number, pageSize: number) => show({ pageNum, pageSize }));
  const closeMenu = useCallback(() => setMenuAt(null), []);
  const onQueued = useCallback(() => setPanelOpen(true), []);
  const uploadTarget = useMemo(
    () =>
      api && path
        ? {
            clusterId: api.clusterId,
            clusterName: efile.clusterName,
            baseUrl: api.baseUrl,
            dir: path,
            failover: efile.service.switchInstance,
          }
        : null,
    [api, path, efile.clusterName, efile.service.switchInstance],
  );
  // A page that answers within a moment replaces the one on screen without a spinner flashing over it; one that
  // takes longer gets it. With nothing on screen yet, the spinner shows at once.
  const slow = useDelayed(dir.isFetching && dir.isPlaceholderData, 300);

  if (efile.clustersLoading) return <Spin className="efile-loading" />;
  if (efile.clusters.length === 0) return <Alert type="info" showIcon title={t('efile.noCluster')} />;

  // A centre without a working file service: its alert alone, and only what works without one stays enabled
  // (another centre, the upload list of other centres). Nothing of the previously shown centre is left on screen.
  const unavailable = efile.service.error;
  // A listing (or the cluster's initInfo) that failed shows the error, not an empty folder; a refresh that failed
  // while a page is on screen keeps it (the failure is reported as a message).
  const failure = unavailable ? null : dir.error && !dir.data ? dir.error : !init ? efile.initError : null;
  const ownHome = init?.homePath ?? null;

  return (
    <div ref={root} className={`efile ${fullscreen ? 'efile-fullscreen' : ''}`} data-testid="efile">
      {unavailable && (
        <ClusterUnavailable
          error={unavailable}
          centerName={efile.clusterName}
          kind="efile"
          testId="efile-unavailable"
        />
      )}
      <FileToolbar
        clusters={clusterChoices}
        clusterId={clusterId}
        onCluster={onCluster}
        homeDir={homeDir}
        userHomes={homes}
        shareRoots={shareRoots}
        onGo={goTo}
        onMyShares={onMyShares}
        onUploadFiles={onUploadFiles}
        onUploadFolder={onUploadFolder}
        onCreate={onCreate}
        onAction={onAction}
        columns={visible}
        onToggleColumn={toggle}
        uploadCount={activeUploads}
        onUploadList={onUploadList}
        fullscreen={fullscreen}
        onFullscreen={toggleFullscreen}
        disabled={unavailable !== null || api === null}
        extra={
          <FastransBar
            clusterId={clusterId}
            dir={path}
            homePath={ownHome}
            selected={selectedEntries}
            refresh={refresh}
            goTo={goTo}
            disabled={unavailable !== null || api === null}
          />
        }
      />
      {path && !unavailable && (
        <PathBar
          path={path}
          roots={roots}
          keyword={loc.keyword}
          onGo={goTo}
          onUp={canGoUp ? up : null}
          onRefresh={refresh}
          onSearch={onSearch}
          onInvalidPath={onInvalidPath}
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
      {!unavailable && !failure && !api && <Spin className="efile-loading" />}
      {failure && (
        <FolderError
          error={failure}
          onRetry={retry}
          onHome={ownHome && path !== ownHome ? () => goTo(ownHome) : undefined}
        />
      )}
      {!failure && !unavailable && api && init && uploadTarget && (
        <UploadDropZone ref={pickers} api={api} init={init} target={uploadTarget} onQueued={onQueued}>
          <FileTable
            rows={rows}
            loading={dir.isLoading || slow}
            columns={visible}
            sort={loc.sort}
            order={loc.order}
            selected={selected}
            onSelect={setSelected}
            onSort={onSort}
            onOpen={onOpen}
            onContextMenu={onContextMenu}
          />
        </UploadDropZone>
      )}
      {dir.data && api && !unavailable && (
        <FilePagination
          total={dir.data.total}
          pageNum={loc.pageNum}
          pageSize={loc.pageSize}
          onChange={onPage}
        />
      )}
      <ContextMenu at={menuAt} onAction={onAction} onClose={closeMenu} />
      {panelOpen && (
        <UploadPanel
          onClose={() => setPanelOpen(false)}
          onOpenDir={(c, d) => goTo(d, c)}
          maxChunkSize={init?.maxChunkSize ?? 1024 * 1024}
        />
      )}
      {api && path && !unavailable && (
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

/**
 * When a dialog closes, the focus goes back to where it last was in the file manager (the button or row that
 * opened it), not to the top of the page: the dialogs unmount on close, so Ant Design's own return never runs.
 * Only focus inside the file manager's element counts: the dialogs are portalled outside it.
 */
function useFocusReturn(root: React.RefObject<HTMLElement | null>, open: boolean) {
  const last = useRef<HTMLElement | null>(null);
  useEffect(() => {
    // On the document, since the file manager's element may not exist yet when this runs.
    const onFocus = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement && root.current?.contains(e.target)) last.current = e.target;
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [root]);
  useEffect(() => {
    if (open) return;
    const frame = requestAnimationFrame(() => {
      const target = last.current;
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && target?.isConnected) target.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [open]);
}
