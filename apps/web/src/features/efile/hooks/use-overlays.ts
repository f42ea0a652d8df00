import { useCallback, useState } from 'react';
import type { Dialog } from '../components/file-dialogs';

/**
 * What the file manager shows over its folder: one dialog at a time, the right-click menu at the pointer, and the
 * upload list. The handlers are stable, so the memoized toolbar, table and menu do not render again for them.
 */
export function useOverlays() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const closeDialog = useCallback(() => setDialog(null), []);
  const openMenu = useCallback((_e: unknown, x: number, y: number) => setMenuAt({ x, y }), []);
  const closeMenu = useCallback(() => setMenuAt(null), []);
  const toggleUploads = useCallback(() => setPanelOpen((o) => !o), []);
  const openUploads = useCallback(() => setPanelOpen(true), []);
  const closeUploads = useCallback(() => setPanelOpen(false), []);
  return {
    dialog,
    openDialog: setDialog,
    closeDialog,
    menuAt,
    openMenu,
    closeMenu,
    panelOpen,
    toggleUploads,
    openUploads,
    closeUploads,
    /** The registry's keys act only while no dialog or menu is open. */
    keys: dialog === null && menuAt === null,
  };
}
