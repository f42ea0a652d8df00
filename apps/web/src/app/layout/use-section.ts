import { useMatches } from 'react-router';
import type { Section } from '../routes';

/** The section of the current route (from the route table's `handle`), 'other' when none matched. */
export function useSection(): Section {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as { section?: Section } | undefined;
    if (handle?.section) return handle.section;
  }
  return 'other';
}
