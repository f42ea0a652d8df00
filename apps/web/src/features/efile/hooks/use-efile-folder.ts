import { useCallback, useEffect, useMemo } from 'react';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import type { ActionState } from '../actions';
import { useUploadLanded } from '../upload/use-uploads';
import { directoryKey, useDirectory, usePrefetchNextPage } from './use-directory';
import { useDelayed } from './use-delayed';
import { useEfileClient } from './use-efile-client';
import { folderPatch, useEfileLocation, type EfileLocation } from './use-efile-location';
import { usePlaces } from './use-places';
import { useSelection } from './use-selection';
import { useStableCallback } from './use-stable-callback';

/**
 * The folder on screen: the address (centre, path, page, sort, search), the centre's efile client, the page's
 * listing and its selection, the places, the actions' state, and the ways of changing the address. The handlers are
 * stable ({@link useStableCallback}): paging re-renders the file manager, and its memoized children keep their props.
 */
export function useEfileFolder() {
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
  const on = {
    cluster: useStableCallback((id: string) =>
      update({ cluster: id, path: null, pageNum: 1, keyword: '' }, true),
    ),
    search: useStableCallback((keyword: string) => show({ keyword, pageNum: 1 })),
    invalidPath: useStableCallback(() => void message.warning(t('efile.goto.invalid'))),
    sort: useStableCallback((sort: EfileLocation['sort'], order: EfileLocation['order']) =>
      show({ sort, order, pageNum: 1 }),
    ),
    page: useStableCallback((pageNum: number, pageSize: number) => show({ pageNum, pageSize })),
  };

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
  /** Where the upload drop zone queues to: the folder on screen, on the instance that answers now. */
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

  return {
    loc,
    efile,
    path,
    dir,
    rows,
    selection,
    goTo,
    refresh,
    retry,
    on,
    places,
    canGoUp,
    unavailable,
    state,
    uploadTarget,
    slow,
  };
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
