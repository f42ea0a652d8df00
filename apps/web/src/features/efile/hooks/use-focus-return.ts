import { useEffect, useRef } from 'react';

/**
 * When a dialog closes, the focus goes back to where it last was in the file manager (the button or row that
 * opened it), not to the top of the page: the dialogs unmount on close, so Ant Design's own return never runs.
 * Only focus inside the file manager's element counts: the dialogs are portalled outside it.
 */
export function useFocusReturn(root: React.RefObject<HTMLElement | null>, open: boolean) {
  const last = useRef<HTMLElement | null>(null);
  useEffect(() => {
    // On the document, since the file manager's element may not exist yet when this runs.
    const onFocus = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement && root.current?.contains(e.target)) last.current = e.target;
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [root]);
  useEffect(() => {
    if (open) return;
    const frame = requestAnimationFrame(() => {
      const target = last.current;
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && target?.isConnected) target.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [open]);
}
