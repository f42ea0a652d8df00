import type { EfileAction } from './action';
import { copyAction, moveAction } from './copy-move.action';
import { newFileAction, newFolderAction } from './create.action';
import { deleteAction } from './delete.action';
import { downloadAction } from './download.action';
import { selectAllAction, upAction } from './navigate.action';
import { openAction } from './open.action';
import { openShellAction } from './open-shell.action';
import { mySharesAction } from './my-shares.action';
import { renameAction } from './rename.action';
import { shareAction } from './share.action';
import { submitJobAction } from './submit-job.action';
import { uploadFilesAction, uploadFolderAction } from './upload.action';

/**
 * E-File's actions, in the order they appear: the toolbar, the right-click menu and the keyboard are all built from
 * this one list (as Excalidraw's actions/ are), so an action is written once.
 *
 * To add an action (e.g. "submit as job" on a script file, "open a shell here" on a folder):
 * 1. Write one module `actions/<name>.action.tsx` that exports `defineAction({ … })` (see `EfileAction` in
 *    action.ts): `id`; `labelKey` (its text in the locales, both languages); `icon`; where it shows (`toolbar:
 *    'places' | 'selection' | 'upload' | 'create'`, `contextMenu: true`); `keys` if any; `selection: 'some' | 'one'` if it acts
 *    on the selection (a click without one warns, spec §5); `enabled` (use `onFiles` for anything that touches the
 *    centre's files: it is false while the centre has no working service or the account is deactivated);
 *    `visible` when it is offered only sometimes (`(s) => s.selection.length === 1 && isScript(s.selection[0])`);
 *    and `run(ctx)`, which gets the state, the cluster's `api`, `openDialog`, `goTo`, `refresh`, `select`,
 *    `message`, `modal` and `t`. A failure thrown by `run` is shown as the translated message of its code.
 * 2. Add it to this list, where it belongs in the toolbar's and the menu's order: one line.
 * A dialog of its own goes into `Dialog` and `FileDialogs` (components/file-dialogs.tsx).
 */
export const EFILE_ACTIONS: readonly EfileAction[] = [
  mySharesAction,
  uploadFilesAction,
  uploadFolderAction,
  newFolderAction,
  newFileAction,
  openAction,
  downloadAction,
  renameAction,
  copyAction,
  moveAction,
  shareAction,
  submitJobAction,
  openShellAction,
  deleteAction,
  selectAllAction,
  upAction,
];

export { onFiles, defineAction } from './action';
export type { ActionContext, ActionState, EfileAction, KeyBinding, Trigger } from './action';
