import { DownloadOutlined } from '@ant-design/icons';
import { isApiError } from '@hpc/api-client';
import { FileCodes, Limits } from '@hpc/contracts';
import { startDownload } from '../../../shared/utils/start-download';
import { offerFastTransfer } from '../../fastrans';
import { defineAction, onFiles } from './action';

/**
 * Download: one file as it is; a folder or several items as one zip, counted first (over the limit is refused before
 * any byte, and fast transfer is offered at once, spec §5), with a download key when the paths would make the
 * address too long.
 */
export const downloadAction = defineAction({
  id: 'download',
  labelKey: 'efile.actions.download',
  verbKey: 'efile.verbs.download',
  icon: <DownloadOutlined />,
  toolbar: 'selection',
  contextMenu: true,
  selection: 'some',
  enabled: onFiles,
  run: async ({ api, selection, message, t }) => {
    const only = selection[0];
    if (selection.length === 1 && only && !only.isDirectory) {
      startDownload(await api.downloadUrl(only.path));
      return;
    }
    const paths = selection.map((e) => e.path);
    try {
      const check = await api.downloadCheck(paths);
      const name = selection.length === 1 && only ? only.name : undefined;
      startDownload(
        await api.multiDownloadUrl(check.downKey ? { downKey: check.downKey, name } : { paths, name }),
      );
    } catch (e) {
      if (!isApiError(e) || e.code !== FileCodes.downloadLimit) throw e;
      void message.warning(t('efile.download.tooMany', { limit: Limits.folderFileLimit }));
      offerFastTransfer({ kind: 'download', paths });
    }
  },
});
