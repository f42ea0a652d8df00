import { CodeOutlined } from '@ant-design/icons';
import { shellHereLink } from '../../eshell';
import { defineAction, onFiles } from './action';

/**
 * "Open a shell here" (issue 26 §2): a new E-Shell tab on the centre whose shell starts in the selected folder, or
 * in the folder on screen when no single folder is selected. The shell service is asked for on that page: a centre
 * without one says so there.
 */
export const openShellAction = defineAction({
  id: 'open-shell',
  labelKey: 'efile.actions.openShell',
  icon: <CodeOutlined />,
  toolbar: 'selection',
  iconOnly: true,
  contextMenu: true,
  enabled: (s) => onFiles(s) && s.dir !== null,
  visible: (s) => s.selection.length === 0 || (s.selection.length === 1 && s.selection[0]!.isDirectory),
  run: (ctx) => {
    const one = ctx.selection.length === 1 && ctx.selection[0]!.isDirectory ? ctx.selection[0]!.path : null;
    const dir = one ?? ctx.dir;
    if (dir) ctx.navigate(shellHereLink(ctx.api.clusterId, dir));
  },
});
