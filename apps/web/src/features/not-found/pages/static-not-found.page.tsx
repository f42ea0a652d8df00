import { useEffect } from 'react';

/** Where the portal serves the static 404 page (apps/portal features/site). */
export const STATIC_404_URL = '/404.html';

/**
 * An unknown address in production (spec §2): the browser goes to the static 404 page, which the portal serves
 * without the app. Replaced, not pushed, so "back" returns to where the user came from.
 */
export default function StaticNotFoundPage() {
  useEffect(() => {
    window.location.replace(STATIC_404_URL);
  }, []);
  return null;
}
