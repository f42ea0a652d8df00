import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseListState, toListParams, type ListState } from './list-state';

/**
 * The list state read from and written to the address. Any change of a filter goes back to page 1; changing only
 * the page keeps the rest.
 */
export function useListState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseListState(params), [params]);
  const update = useCallback(
    (patch: Partial<ListState>, opts: { replace?: boolean } = {}) => {
      const resetsPage = !('page' in patch);
      const next = { ...state, ...patch, ...(resetsPage ? { page: 1 } : {}) };
      setParams(toListParams(next), { replace: opts.replace ?? false });
    },
    [state, setParams],
  );
  return { state, update };
}
