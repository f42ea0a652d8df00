import { useCallback, useState } from 'react';
import { local } from '../../../shared/utils/storage';

export const ALL_COLUMNS = ['name', 'owner', 'type', 'size', 'permission', 'mtime'] as const;
export type ColumnKey = (typeof ALL_COLUMNS)[number];
const KEY = 'hpc.efile.columns';

function read(): ColumnKey[] {
  try {
    const v = JSON.parse(local.get(KEY) ?? 'null') as unknown;
    if (Array.isArray(v)) {
      const cols = ALL_COLUMNS.filter((c) => v.includes(c));
      if (cols.includes('name')) return cols;
    }
  } catch {
    // A damaged preference falls back to every column.
  }
  return [...ALL_COLUMNS];
}

/** The visible columns (custom columns, persisted); the file name is always shown. */
export function useColumns() {
  const [visible, setVisible] = useState<ColumnKey[]>(read);
  const toggle = useCallback((col: ColumnKey, on: boolean) => {
    if (col === 'name') return;
    setVisible((prev) => {
      const next = ALL_COLUMNS.filter((c) => (c === col ? on : prev.includes(c)));
      local.set(KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return { visible, toggle };
}
