import { EditOutlined } from '@ant-design/icons';
import { defineAction, onFiles } from './action';

/** Rename one entry in the name dialog (spec §5's name rules; a shared item warns first). */
export const renameAction = defineAction({
  id: 'rename',
  labelKey: 'efile.actions.rename',
  verbKey: 'efile.verbs.rename',
  icon: <EditOutlined />,
  toolbar: 'selection',
  contextMenu: true,
  keys: [{ key: 'F2' }],
  selection: 'one',
  enabled: onFiles,
  run: ({ selection, openDialog }) => {
    const [entry] = selection;
    if (entry) openDialog({ kind: 'rename', entry });
  },
});
