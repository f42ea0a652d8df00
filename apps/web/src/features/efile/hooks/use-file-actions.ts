import { useCallback } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@hpc/api-client';
import { FileCodes } from '@hpc/contracts';
import { Limits, type FileEntry } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../api/efile.api';
import { isImage } from '../lib/file-kinds';
import { baseName } from '../lib/paths';

/** The dialogs the file manager opens; one at a time. */
export type Dialog =
  | { kind: 'create'; type: 'file' | 'folder' }
  | { kind: 'rename'; entry: FileEntry }
  | { kind: 'copyMove'; mode: 'copy' | 'move'; paths: string[] }
  | { kind: 'share'; entry: FileEntry }
  | { kind: 'editor'; entry: FileEntry; check: { size: number; mtime: number } }
  | { kind: 'image'; entry: FileEntry }
  | { kind: 'myShares' }
  | null;

export type SelectionAction = 'delete' | 'download' | 'rename' | 'copy' | 'move' | 'share';

interface Ctx {
  api: EfileApi | null;
  selected: FileEntry[];
  goTo: (path: string) => void;
  refresh: () => void;
  clearSelection: () => void;
  setDialog: (d: Dialog) => void;
}

/** Starts the browser's download of `url` without leaving the page. */
export function startDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * What the toolbar, the keyboard and the context menu do with the selection. Every action that needs a selection
 * warns when there is none (spec §5); failures show the translated message of their code (shared api mapping).
 */
export function useFileActions(ctx: Ctx) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { api, selected, goTo, refresh, clearSelection, setDialog } = ctx;

  const need = useCallback(
    (action: SelectionAction, one = false): boolean => {
      if (selected.length === 0) {
        void message.warning({
          content: t('efile.selectFirst', { action: t(`efile.verbs.${action}`) }),
          key: 'select',
        });
        return false;
      }
      if (one && selected.length > 1) {
        void message.warning({ content: t('efile.selectOne'), key: 'select' });
        return false;
      }
      return true;
    },
    [selected, message, t],
  );

  const open = useCallback(
    async (entry: FileEntry) => {
      if (!api) return;
      if (entry.isDirectory) return goTo(entry.path);
      if (isImage(entry)) return setDialog({ kind: 'image', entry });
      try {
        // The server's checks first: too large ("1505") or not a text type ("1506").
        const check = await api.previewCheck(entry.path);
        setDialog({ kind: 'editor', entry, check });
      } catch (e) {
        notifyError(e);
      }
    },
    [api, goTo, setDialog],
  );

  const remove = useCallback(() => {
    if (!api || !need('delete')) return;
    const names = selected.map((e) => e.name);
    modal.confirm({
      title: t('efile.delete.title'),
      content: t('efile.delete.confirm', { count: names.length, name: names[0] }),
      okType: 'danger',
      okText: t('efile.actions.delete'),
      cancelText: t('efile.cancel'),
      onOk: async () => {
        try {
          await api.remove(selected.map((e) => e.path));
          void message.success(t('efile.delete.done'));
          clearSelection();
          refresh();
        } catch (e) {
          notifyError(e);
        }
      },
    });
  }, [api, need, selected, modal, message, t, clearSelection, refresh]);

  const download = useCallback(async () => {
    if (!api || !need('download')) return;
    try {
      const only = selected[0];
      if (selected.length === 1 && only && !only.isDirectory) {
        startDownload(await api.downloadUrl(only.path));
        return;
      }
      // A folder or several items become one zip: counted first (over the limit is refused before any byte),
      // with a download key when the paths would make the address too long.
      const paths = selected.map((e) => e.path);
      const check = await api.downloadCheck(paths);
      const name = selected.length === 1 && only ? only.name : undefined;
      startDownload(
        await api.multiDownloadUrl(check.downKey ? { downKey: check.downKey, name } : { paths, name }),
      );
    } catch (e) {
      if (isApiError(e) && e.code === FileCodes.downloadLimit) {
        void message.warning(t('efile.download.tooMany', { limit: Limits.folderFileLimit }));
      } else notifyError(e);
    }
  }, [api, need, selected, message, t]);

  const rename = useCallback(() => {
    const only = selected[0];
    if (need('rename', true) && only) setDialog({ kind: 'rename', entry: only });
  }, [need, selected, setDialog]);

  const copyMove = useCallback(
    (mode: 'copy' | 'move') => {
      if (need(mode)) setDialog({ kind: 'copyMove', mode, paths: selected.map((e) => e.path) });
    },
    [need, selected, setDialog],
  );

  const share = useCallback(() => {
    const only = selected[0];
    if (need('share', true) && only) setDialog({ kind: 'share', entry: only });
  }, [need, selected, setDialog]);

  return { open, remove, download, rename, copyMove, share, need };
}

export const displayName = (path: string) => baseName(path) || path;
