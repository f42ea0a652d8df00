import { useEffect, useRef } from 'react';

export interface KeyHandlers {
  onDelete: () => void;
  onRename: () => void;
  onOpen: () => void;
  onUp: () => void;
  onSelectAll: () => void;
}

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

/** Desktop keys of the file list: Delete, F2 rename, Enter open, Backspace up, Ctrl/Cmd+A select all. */
export function useKeyboard(enabled: boolean, handlers: KeyHandlers) {
  // The latest handlers, read at key time: the listener is not re-added on every render of the file manager.
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (ignored(e)) return;
      // Enter on a button, link, tab or menu entry is that control's own (it would otherwise never open the New
      // menu or press a toolbar button from the keyboard).
      if (e.key === 'Enter' && (e.target as HTMLElement | null)?.closest?.(CONTROLS)) return;
      const h = ref.current;
      if (e.key === 'Delete') h.onDelete();
      else if (e.key === 'F2') h.onRename();
      else if (e.key === 'Enter') h.onOpen();
      else if (e.key === 'Backspace') h.onUp();
      else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') h.onSelectAll();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
