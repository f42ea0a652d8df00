import type { ReactNode } from 'react';
import type { App } from 'antd';
import type { TFunction } from 'i18next';
import type { FileEntry } from '@hpc/contracts';
import type { EfileApi } from '../api/efile.api';
import type { Dialog } from '../components/file-dialogs';

/**
 * What an action's enabled-when and visible-when see: the file manager at this moment. Kept small and free of the
 * page's rows, so that the toolbar renders again when the selection or the centre changes, not with every page.
 */
export interface ActionState {
  /** The selected entries of the page on screen, in the listing's order. */
  selection: readonly FileEntry[];
  /** The folder on screen (null until the home is known). */
  dir: string | null;
  /** A working file service answers on this centre, and the folder can be asked for. */
  online: boolean;
  /**
   * The user's account on this centre is deactivated (spec §1, accountDetail.status "Disable"): efile refuses every
   * call with 1007, so nothing on its files can work until the sales manager reactivates it.
   */
  deactivated: boolean;
  /** The folder on screen has a parent inside the user's roots. */
  canGoUp: boolean;
}

/** Where a run came from: a key press stays silent where a click would warn (Enter with nothing to open). */
export type Trigger = 'toolbar' | 'menu' | 'key';

/** What an action's run gets: the state, the cluster's calls and the file manager's ways of acting. */
export interface ActionContext extends ActionState {
  api: EfileApi;
  trigger: Trigger;
  /** Every entry of the page on screen. */
  rows: readonly FileEntry[];
  t: TFunction;
  message: ReturnType<typeof App.useApp>['message'];
  modal: ReturnType<typeof App.useApp>['modal'];
  openDialog: (d: Dialog) => void;
  goTo: (path: string) => void;
  /** Leaves E-File for another page of the portal (the Job page's form, for "submit as job"). */
  navigate: (to: string) => void;
  refresh: () => void;
  select: (paths: string[]) => void;
  /** Opens the browser's chooser of files or of a folder, whose choice is queued for upload here. */
  pickUpload: (kind: 'files' | 'folder') => void;
}

/** A key that runs an action: `key` as KeyboardEvent.key has it; `mod` is Ctrl, or ⌘ on a Mac. */
export interface KeyBinding {
  key: string;
  mod?: boolean;
}

/** One thing a user can do in E-File: one module of actions/, listed once in actions/index.ts. */
export interface EfileAction {
  id: string;
  /** The translation key of its name (toolbar button, menu entry). */
  labelKey: string;
  icon?: ReactNode;
  /**
   * Its place in the toolbar: a button of the places' row (after the centre's folders), a button of the selection's
   * row, or an entry of the Upload or New menu.
   */
  toolbar?: 'places' | 'selection' | 'upload' | 'create';
  /**
   * Shown in the toolbar as its icon alone, named by a tooltip and its accessible name: for the actions that lead
   * out of E-File (the shell), so that the toolbar keeps one row at 1440 px in English.
   */
  iconOnly?: boolean;
  /** An entry of the right-click menu of a row. */
  contextMenu?: boolean;
  danger?: boolean;
  keys?: readonly KeyBinding[];
  /**
   * What it needs selected: without it a click warns (spec §5 "a warning asks to choose files") and nothing runs.
   * `verbKey` names the action in that warning ("Please choose the files to … first"); the label's key otherwise.
   */
  selection?: 'some' | 'one';
  verbKey?: string;
  /** Whether it can work now; when not, its button and menu entry are disabled and its keys do nothing. */
  enabled: (s: ActionState) => boolean;
  /** Whether it is offered at all (e.g. only on a script file); always when not set. */
  visible?: (s: ActionState) => boolean;
  run: (ctx: ActionContext) => void | Promise<void>;
}

/** The enabled-when of every action on the centre's files: a working service, an account that is not deactivated. */
export const onFiles = (s: ActionState): boolean => s.online && !s.deactivated;

/** Types an action module's export (the registry's entries are checked where they are written). */
export const defineAction = (a: EfileAction): EfileAction => a;
