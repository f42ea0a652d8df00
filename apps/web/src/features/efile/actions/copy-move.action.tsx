import { CopyOutlined, ScissorOutlined } from '@ant-design/icons';
import { defineAction, onFiles, type EfileAction } from './action';

/** Copy or move the selection into a folder chosen in the dialog; efile runs it as an operation (spec §4). */
const copyOrMove = (mode: 'copy' | 'move', icon: React.ReactNode): EfileAction =>
  defineAction({
    id: mode,
    labelKey: `efile.actions.${mode}`,
    verbKey: `efile.verbs.${mode}`,
    icon,
    toolbar: 'selection',
    contextMenu: true,
    selection: 'some',
    enabled: onFiles,
    run: ({ selection, openDialog }) =>
      openDialog({ kind: 'copyMove', mode, paths: selection.map((e) => e.path) }),
  });

export const copyAction = copyOrMove('copy', <CopyOutlined />);
export const moveAction = copyOrMove('move', <ScissorOutlined />);
