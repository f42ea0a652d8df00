import { DeleteOutlined } from '@ant-design/icons';
import { notifyError } from '../../../shared/api/notify';
import { defineAction, onFiles } from './action';

/** Delete the selection after a confirmation (folders with their contents; it cannot be undone). */
export const deleteAction = defineAction({
  id: 'delete',
  labelKey: 'efile.actions.delete',
  verbKey: 'efile.verbs.delete',
  icon: <DeleteOutlined />,
  toolbar: 'selection',
  contextMenu: true,
  danger: true,
  keys: [{ key: 'Delete' }],
  selection: 'some',
  enabled: onFiles,
  run: ({ api, selection, modal, message, t, select, refresh }) => {
    const paths = selection.map((e) => e.path);
    modal.confirm({
      title: t('efile.delete.title'),
      // One item by its name (a folder says that its contents go too); several by the first one's name and how many.
      content: t(
        selection.length > 1
          ? 'efile.delete.confirm'
          : selection[0]?.isDirectory
            ? 'efile.delete.confirmFolder'
            : 'efile.delete.confirmFile',
        { count: selection.length, name: selection[0]?.name },
      ),
      okType: 'danger',
      okText: t('efile.actions.delete'),
      cancelText: t('efile.cancel'),
      onOk: async () => {
        try {
          await api.remove(paths);
          void message.success(t('efile.delete.done'));
          select([]);
          refresh();
        } catch (e) {
          notifyError(e);
        }
      },
    });
  },
});
