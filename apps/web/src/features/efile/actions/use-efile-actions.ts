import { useMemo } from 'react';
import { App } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../api/efile.api';
import type { Dialog } from '../components/file-dialogs';
import { useStableCallback } from '../hooks/use-stable-callback';
import { EFILE_ACTIONS } from './index';
import type { ActionContext, ActionState, EfileAction, Trigger } from './action';
import { useActionKeys } from './action-keys';
import { openEntry } from './open.action';

/** An action as the toolbar and the menu show it now. */
export interface ActionView {
  id: string;
  labelKey: string;
  icon: React.ReactNode;
  danger: boolean;
  disabled: boolean;
  toolbar: EfileAction['toolbar'];
  iconOnly: boolean;
  contextMenu: boolean;
}

interface Deps {
  state: ActionState;
  rows: readonly FileEntry[];
  api: EfileApi | null;
  openDialog: (d: Dialog) => void;
  goTo: (path: string) => void;
  refresh: () => void;
  select: (paths: string[]) => void;
  pickUpload: (kind: 'files' | 'folder') => void;
  /** The keys act only while no dialog or menu is open. */
  keys: boolean;
}

/** Whether the selection satisfies what the action needs; warns when not (spec §5) and says so. */
function hasSelection(a: EfileAction, ctx: ActionContext): boolean {
  if (!a.selection) return true;
  const verb = ctx.t(a.verbKey ?? a.labelKey);
  if (ctx.selection.length === 0) {
    void ctx.message.warning({ content: ctx.t('efile.selectFirst', { action: verb }), key: 'select' });
    return false;
  }
  if (a.selection === 'one' && ctx.selection.length > 1) {
    void ctx.message.warning({ content: ctx.t('efile.selectOne'), key: 'select' });
    return false;
  }
  return true;
}

/**
 * The registry bound to the file manager: the actions' views for the toolbar and the menu (recomputed when the
 * state changes, which is not the case with every page), `run(id)` for their clicks, the keys on the window, and
 * `open(entry)` for a double-click or a name link. `run` checks enabled-when, visible-when and the selection first.
 */
export function useEfileActions(deps: Deps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { state } = deps;

  const run = useStableCallback((id: string, trigger: Trigger) => {
    const a = EFILE_ACTIONS.find((x) => x.id === id);
    const { api } = deps;
    if (!a || !api || !a.enabled(state) || (a.visible && !a.visible(state))) return;
    const ctx: ActionContext = {
      ...state,
      ...deps,
      api,
      trigger,
      t,
      message,
      modal,
      navigate: (to) => void navigate(to),
    };
    if (!hasSelection(a, ctx)) return;
    void (async () => a.run(ctx))().catch(notifyError);
  });

  const open = useStableCallback((entry: FileEntry) => {
    const { api } = deps;
    if (api && EFILE_ACTIONS.find((x) => x.id === 'open')?.enabled(state))
      openEntry({ api, goTo: deps.goTo, openDialog: deps.openDialog }, entry).catch(notifyError);
  });

  useActionKeys(deps.keys, EFILE_ACTIONS, run);

  const views = useMemo<ActionView[]>(
    () =>
      EFILE_ACTIONS.filter((a) => !a.visible || a.visible(state)).map((a) => ({
        id: a.id,
        labelKey: a.labelKey,
        icon: a.icon,
        danger: a.danger ?? false,
        disabled: !a.enabled(state),
        toolbar: a.toolbar,
        iconOnly: a.iconOnly ?? false,
        contextMenu: a.contextMenu ?? false,
      })),
    [state],
  );
  return { views, run, open };
}
