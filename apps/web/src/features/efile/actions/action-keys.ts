import { useEffect } from 'react';
import type { EfileAction, KeyBinding } from './action';

const CONTROLS =
  'button, a[href], [role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="option"]';

/** Whether a key press belongs to a text field or a dialog rather than to the file list. */
function ignored(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (!el) return false;
  if (el.closest('textarea, select, [contenteditable="true"], .cm-editor')) return true;
  // A row's checkbox keeps the focus after a click; only typing fields take the keys.
  if (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(el.type)) return true;
  // Closed dialogs may stay in the DOM hidden: only a visible one takes the keys.
  return [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap, .ant-drawer-content-wrapper')].some(
    (d) => getComputedStyle(d).display !== 'none',
  );
}

export const matchesKey = (e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, b: KeyBinding) =>
  e.key.toLowerCase() === b.key.toLowerCase() && (e.ctrlKey || e.metaKey) === (b.mod ?? false) && !e.altKey;

/** The action a key press runs, if any (the first in the registry's order with a matching binding). */
export const actionForKey = (actions: readonly EfileAction[], e: KeyboardEvent): EfileAction | undefined =>
  actions.find((a) => a.keys?.some((b) => matchesKey(e, b)));

/**
 * The desktop keys of the file list, from the registry's bindings (Delete, F2, Enter, Backspace, Ctrl/⌘+A): one
 * listener on the window while `enabled` (no dialog or menu open). Whether the action may run is `run`'s to decide.
 */
export function useActionKeys(
  enabled: boolean,
  actions: readonly EfileAction[],
  run: (id: string, trigger: 'key') => void,
) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || ignored(e)) return;
      // Enter on a button, link, tab or menu entry is that control's own (it would otherwise never open the New
      // menu or press a toolbar button from the keyboard).
      if (e.key === 'Enter' && (e.target as HTMLElement | null)?.closest?.(CONTROLS)) return;
      const action = actionForKey(actions, e);
      if (!action) return;
      e.preventDefault();
      run(action.id, 'key');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, actions, run]);
}
