import { useEffect } from 'react';
import { session, StorageKeys } from '../utils/storage';
import type { ListState } from './list-state';

/**
 * Spec §2 keeps the header query in the session: coming back to a list through the menu (no `keyword` in the
 * address) restores the last search of that catalogue. An explicit clear stores '' and so restores nothing.
 */
export function useKeywordFromSession(
  kind: string,
  keyword: string,
  update: (patch: Partial<ListState>, opts?: { replace?: boolean }) => void,
): void {
  useEffect(() => {
    if (keyword) {
      session.set(StorageKeys.search(kind), keyword);
      return;
    }
    const saved = session.get(StorageKeys.search(kind));
    // Replace, not push: Back must not land on the list without its query and restore it again.
    if (saved) update({ keyword: saved }, { replace: true });
    // Only on arrival: later changes of `keyword` come from the user and are already in the session.
  }, []);
}
