import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import { ClusterUnavailable } from '../../clusters';
import type { ActionState } from '../actions';
import { useEfileActions } from '../actions/use-efile-actions';
import { directoryKey, useDirectory, usePrefetchNextPage } from '../hooks/use-directory';
import { useEfileClient } from '../hooks/use-efile-client';
import { folderPatch, useEfileLocation, type EfileLocation } from '../hooks/use-efile-location';
import { useColumns } from '../hooks/use-columns';
import { useDelayed } from '../hooks/use-delayed';
import { useFullscreen } from '../hooks/use-fullscreen';
import { usePlaces } from '../hooks/use-places';
import { useSelection } from '../hooks/use-selection';
import { useStableCallback } from '../hooks/use-stable-callback';
import { runningOperation, useRunningOperation } from '../hooks/running-operation';
import { createEfileApi } from '../api/efile.api';
import { CommonCodes } from '@hpc/contracts';
import { useActiveUploadCount, useUploadLanded } from '../upload/use-uploads';
import { FastransBar } from '../fastrans/fastrans-bar';
import { UploadPanel } from '../upload/upload-panel';
import { AccountDeactivated } from './account-deactivated';
import { ContextMenu } from './context-menu';
import { FileDialogs, type Dialog } from './file-dialogs';
import { FilePagination } from './file-pagination';
import { FileTable } from './file-table';
import { FileToolbar } from './file-toolbar';
import { FolderError } from './folder-error';
import { OperationProgressBar } from './operation-progress';
import { PathBar } from './path-bar';
import { UploadDropZone, type UploadPickers } from './upload-drop-zone';

/**
 * The E-File screen: toolbar, path bar, the page of the folder, pagination, upload panel and dialogs. What the user
 * can do is the action registry's (actions/): the toolbar, the right-click menu and the keys are built from it, each
 * action enabled by its own rule. Paging changes the address, which re-renders this component; its children get
 * stable props (memoized values, {@link useStableCallback}) so that only the table and the pagination render again.
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
  useReportRefreshFailure(dir);
  const { visible, toggle } = useColumns();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const activeUploads = useActiveUploadCount();
  const root = useRef<HTMLDivElement>(null);
  useFocusReturn(root, dialog !== null);
  const pickers = useRef<UploadPickers>(null);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(root);
  const operation = useRunningOperation();
  const operationApi = useMemo(
    () => (operation ? createEfileApi(operation.clusterId, operation.baseUrl) : null),
    [operation],
  );

  const rows = useMemo(() => dir.data?.list ?? [], [dir.data]);
  const view = JSON.stringify([clusterId, path, loc.pageNum, loc.pageSize, loc.sort, loc.order, loc.keyword]);
  const selection = useSelection(view, rows);

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

  const places = usePlaces(efile.clusters, clusterId, init, i18n.language);
  const canGoUp = path !== null && !places.roots.includes(path) && path !== '/';
  // A centre without a working file service: its alert alone, and only what works without one stays enabled
  // (another centre, the upload list of other centres). Nothing of the previously shown centre is left on screen.
  const unavailable = efile.service.error;
  const state = useMemo<ActionState>(
    () => ({
      selection: selection.entries,
      dir: path,
      online: unavailable === null && api !== null,
      deactivated: efile.deactivated,
      canGoUp,
    }),
    [selection.entries, path, unavailable, api, efile.deactivated, canGoUp],
  );
  const actions = useEfileActions({
    state,
    rows,
    api,
    openDialog: setDialog,
    goTo,
    refresh,
    select: selection.select,
    pickUpload: (kind) => pickers.current?.[kind](),
    keys: dialog === null && menuAt === null,
  });
  const onRun = useStableCallback((id: string) => actions.run(id, menuAt ? 'menu' : 'toolbar'));

  const onCluster = useStableCallback((id: string) =>
    update({ cluster: id, path: null, pageNum: 1, keyword: '' }, true),
  );
  const onMyShares = useCallback(() => setDialog({ kind: 'myShares' }), []);
  const onUploadList = useCallback(() => setPanelOpen((o) => !o), []);
  const onSearch = useStableCallback((keyword: string) => show({ keyword, pageNum: 1 }));
  const onInvalidPath = useStableCallback(() => void message.warning(t('efile.goto.invalid')));
  const onSort = useStableCallback((sort: EfileLocation['sort'], order: EfileLocation['order']) =>
    show({ sort, order, pageNum: 1 }),
  );
  const onContextMenu = useCallback((_e: unknown, x: number, y: number) => setMenuAt({ x, y }), []);
  const onPage = useStableCallback((pageNum: number, pageSize: number) => show({ pageNum, pageSize }));
  const closeMenu = useCallback(() => setMenuAt(null), []);
  const onQueued = useCallback(() => setPanelOpen(true), []);
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

  // A listing (or the cluster's initInfo) that failed shows the error, not an empty folder; a refresh that failed
  // while a page is on screen keeps it (the failure is reported as a message).
  const failure = unavailable ? null : dir.error && !dir.data ? dir.error : !init ? efile.initError : null;
  const ownHome = init?.homePath ?? null;
  const usable = !unavailable && !efile.deactivated;
  const account = efile.clusters.find((c) => c.clusterId === clusterId)?.accountDetail?.name ?? '';

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
        clusters={places.clusterChoices}
        clusterId={clusterId}
        onCluster={onCluster}
        homeDir={places.homeDir}
        userHomes={places.homes}
        shareRoots={places.shareRoots}
        onGo={goTo}
        onMyShares={onMyShares}
        actions={actions.views}
        onRun={onRun}
        columns={visible}
        onToggleColumn={toggle}
        uploadCount={activeUploads}
        onUploadList={onUploadList}
        fullscreen={fullscreen}
        onFullscreen={toggleFullscreen}
        disabled={!state.online || !usable}
        extra={
          <FastransBar
            clusterId={clusterId}
            dir={path}
            homePath={ownHome}
            selected={selection.entries}
            refresh={refresh}
            goTo={goTo}
            disabled={!state.online || !usable}
          />
        }
      />
      {path && usable && (
        <PathBar
          path={path}
          roots={places.roots}
          keyword={loc.keyword}
          onGo={goTo}
          onUp={canGoUp ? () => actions.run('up', 'toolbar') : null}
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
      {efile.deactivated && <AccountDeactivated centre={efile.clusterName} account={account} />}
      {usable && !failure && !api && <Spin className="efile-loading" />}
      {usable && failure && (
        <FolderError
          error={failure}
          onRetry={retry}
          onHome={ownHome && path !== ownHome ? () => goTo(ownHome) : undefined}
        />
      )}
      {usable && !failure && api && init && uploadTarget && (
        <UploadDropZone ref={pickers} api={api} init={init} target={uploadTarget} onQueued={onQueued}>
          <FileTable
            rows={rows}
            loading={dir.isLoading || slow}
            columns={visible}
            sort={loc.sort}
            order={loc.order}
            selected={selection.paths}
            onSelect={selection.select}
            onSort={onSort}
            onOpen={actions.open}
            onContextMenu={onContextMenu}
            thumbnailUrl={api.rawPreviewUrl}
          />
        </UploadDropZone>
      )}
      {dir.data && api && usable && (
        <FilePagination
          total={dir.data.total}
          pageNum={loc.pageNum}
          pageSize={loc.pageSize}
          onChange={onPage}
        />
      )}
      <ContextMenu at={menuAt} actions={actions.views} onRun={onRun} onClose={closeMenu} />
      {panelOpen && (
        <UploadPanel
          onClose={() => setPanelOpen(false)}
          onOpenDir={(c, d) => goTo(d, c)}
          maxChunkSize={init?.maxChunkSize ?? 1024 * 1024}
        />
      )}
      {api && path && usable && (
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
 * The folder's own failure is shown in place (FolderError) and is not also a message; a refresh that failed while
 * the page stays on screen is one (the page's query is silent, see useDirectory).
 */
function useReportRefreshFailure(dir: { error: unknown; data: unknown; errorUpdatedAt: number }) {
  const { error, data, errorUpdatedAt } = dir;
  const onScreen = data !== undefined;
  useEffect(() => {
    if (error && onScreen) notifyError(error);
    // Once per failure: errorUpdatedAt changes with each (error and onScreen are read as they are then).
  }, [errorUpdatedAt]);
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
