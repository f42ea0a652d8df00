import { useMemo, useState } from 'react';
import type { FileEntry } from '@hpc/contracts';
import { useStableCallback } from './use-stable-callback';

const NONE: string[] = [];

/**
 * The selected paths of the page on screen. A selection belongs to the page it was made on: keyed by that page
 * (`view`), a new page starts with none without the extra render and commit of the whole screen that clearing it in
 * an effect cost; it is dropped during this render (React re-runs only the caller) so that coming back to the page
 * does not bring it back.
 */
export function useSelection(view: string, rows: readonly FileEntry[]) {
  const [selection, setSelection] = useState({ view, paths: NONE });
  if (selection.view !== view && selection.paths.length > 0) setSelection({ view, paths: NONE });
  const paths = selection.view === view ? selection.paths : NONE;
  const select = useStableCallback((next: string[]) => setSelection({ view, paths: next }));
  const entries = useMemo(() => rows.filter((r) => paths.includes(r.path)), [rows, paths]);
  return { paths, entries, select };
}

/**
 * The paths from `anchor` to `to` in the listing's order (Shift-click and Shift+arrow, as on a desktop): both ends
 * included, whichever comes first; just `to` when the anchor is not on the page.
 */
export function rangeOf(rows: readonly FileEntry[], anchor: string | null, to: string): string[] {
  const a = anchor === null ? -1 : rows.findIndex((r) => r.path === anchor);
  const b = rows.findIndex((r) => r.path === to);
  if (b < 0) return [];
  if (a < 0) return [to];
  const [from, end] = a <= b ? [a, b] : [b, a];
  return rows.slice(from, end + 1).map((r) => r.path);
}
