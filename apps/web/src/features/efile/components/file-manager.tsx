import { useRef } from 'react';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { ClusterUnavailable } from '../../clusters';
import { useEfileActions } from '../actions/use-efile-actions';
import { useColumns } from '../hooks/use-columns';
import { useEfileFolder } from '../hooks/use-efile-folder';
import { useFocusReturn } from '../hooks/use-focus-return';
import { useFullscreen } from '../hooks/use-fullscreen';
import { useOperation } from '../hooks/use-operation';
import { useOverlays } from '../hooks/use-overlays';
import { useStableCallback } from '../hooks/use-stable-callback';
import { useActiveUploadCount } from '../upload/use-uploads';
import { FastransBar } from '../../fastrans';
import { UploadPanel } from '../upload/upload-panel';
import { AccountDeactivated } from './account-deactivated';
import { ContextMenu } from './context-menu';
import { FileDialogs } from './file-dialogs';
import { FilePagination } from './file-pagination';
import { FileTable } from './file-table';
import { FileToolbar } from './file-toolbar';
import { FolderError } from './folder-error';
import { OperationProgressBar } from './operation-progress';
import { PathBar } from './path-bar';
import { UploadDropZone, type UploadPickers } from './upload-drop-zone';

/**
 * The E-File screen: toolbar, path bar, the page of the folder, pagination, upload panel and dialogs. Its state is
 * its hooks' (the folder on screen, what is shown over it, the running copy or move); this is the layout. What the
 * user can do is the action registry's (actions/): the toolbar, the right-click menu and the keys are built from it,
 * each action enabled by its own rule. Paging changes the address, which re-renders this component; its children get
 * stable props (memoized values, {@link useStableCallback}) so that only the table and the pagination render again.
 */
export function FileManager() {
  const { t } = useTranslation();
  const folder = useEfileFolder();
  const { loc, efile, path, dir, rows, selection, goTo, refresh, places, state, unavailable } = folder;
  const { api, init, clusterId } = efile;
  const overlays = useOverlays();
  const operation = useOperation(refresh);
  const { visible, toggle } = useColumns();
  const activeUploads = useActiveUploadCount();
  const root = useRef<HTMLDivElement>(null);
  useFocusReturn(root, overlays.dialog !== null);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(root);
  const pickers = useRef<UploadPickers>(null);
  const actions = useEfileActions({
    state,
    rows,
    api,
    openDialog: overlays.openDialog,
    goTo,
    refresh,
    select: selection.select,
    pickUpload: (kind) => pickers.current?.[kind](),
    keys: overlays.keys,
  });
  const onRun = useStableCallback((id: string) => actions.run(id, overlays.menuAt ? 'menu' : 'toolbar'));

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
        onCluster={folder.on.cluster}
        homeDir={places.homeDir}
        userHomes={places.homes}
        shareRoots={places.shareRoots}
        onGo={goTo}
        actions={actions.views}
        onRun={onRun}
        columns={visible}
        onToggleColumn={toggle}
        uploadCount={activeUploads}
        onUploadList={overlays.toggleUploads}
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
          onUp={folder.canGoUp ? () => actions.run('up', 'toolbar') : null}
          onRefresh={refresh}
          onSearch={folder.on.search}
          onInvalidPath={folder.on.invalidPath}
        />
      )}
      {operation.operation && operation.api && (
        <OperationProgressBar
          api={operation.api}
          operationId={operation.operation.id}
          mode={operation.operation.mode}
          onEnd={operation.end}
        />
      )}
      {efile.deactivated && <AccountDeactivated centre={efile.clusterName} account={account} />}
      {usable && !failure && !api && <Spin className="efile-loading" />}
      {usable && failure && (
        <FolderError
          error={failure}
          onRetry={folder.retry}
          onHome={ownHome && path !== ownHome ? () => goTo(ownHome) : undefined}
        />
      )}
      {usable && !failure && api && init && folder.uploadTarget && (
        <UploadDropZone
          ref={pickers}
          api={api}
          init={init}
          target={folder.uploadTarget}
          onQueued={overlays.openUploads}
        >
          <FileTable
            rows={rows}
            loading={dir.isLoading || folder.slow}
            columns={visible}
            sort={loc.sort}
            order={loc.order}
            selected={selection.paths}
            onSelect={selection.select}
            onSort={folder.on.sort}
            onOpen={actions.open}
            onContextMenu={overlays.openMenu}
            thumbnailUrl={api.rawPreviewUrl}
            keyword={loc.keyword}
          />
        </UploadDropZone>
      )}
      {dir.data && api && usable && (
        <FilePagination
          total={dir.data.total}
          pageNum={loc.pageNum}
          pageSize={loc.pageSize}
          onChange={folder.on.page}
        />
      )}
      <ContextMenu at={overlays.menuAt} actions={actions.views} onRun={onRun} onClose={overlays.closeMenu} />
      {overlays.panelOpen && (
        <UploadPanel
          onClose={overlays.closeUploads}
          onOpenDir={(c, d) => goTo(d, c)}
          maxChunkSize={init?.maxChunkSize ?? 1024 * 1024}
        />
      )}
      {api && path && usable && (
        <FileDialogs
          api={api}
          dir={path}
          dialog={overlays.dialog}
          maxShareDays={init?.shareMaxValidDays ?? 30}
          onClose={overlays.closeDialog}
          refresh={refresh}
          onOperation={(id, mode) => {
            overlays.closeDialog();
            operation.start(api, id, mode);
          }}
        />
      )}
    </div>
  );
}
