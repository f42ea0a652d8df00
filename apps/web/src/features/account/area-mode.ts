/**
 * Area mode (spec §2 "Login timeout"): the portal was opened by another centre's page, either with `?area=` in the
 * address or as a window that has an opener. There a session timeout closes the window instead of showing our
 * login page, since the user logs in on the page that opened it.
 */
const STORAGE_KEY = 'hpc.areaMode';

export function detectAreaMode(env: { search: string; hasOpener: boolean; remembered: boolean }): boolean {
  return env.remembered || env.hasOpener || new URLSearchParams(env.search).has('area');
}

let areaMode: boolean | null = null;

/**
 * Reads area mode from the address as the page loaded. Call once before the router rewrites the URL; the answer
 * is kept in the tab's session storage so that a reload after navigation (which drops `?area=`) keeps it.
 */
export function captureAreaMode(): boolean {
  let remembered = false;
  try {
    remembered = window.sessionStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    // Storage unavailable: fall back to what the address and the opener say.
  }
  let hasOpener = false;
  try {
    hasOpener = window.opener !== null && window.opener !== undefined;
  } catch {
    // A cross-origin opener may throw on access in old engines; it still means we were opened by another page.
    hasOpener = true;
  }
  areaMode = detectAreaMode({ search: window.location.search, hasOpener, remembered });
  if (areaMode) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, '1');
    } catch {
      // Not remembered across reloads; the opener check still applies.
    }
  }
  return areaMode;
}

export const isAreaMode = (): boolean => areaMode ?? captureAreaMode();
