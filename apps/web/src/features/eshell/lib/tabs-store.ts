/**
 * The open tabs of the shell page, kept in sessionStorage (this browser tab only): after a reload each tab attaches
 * to its session again (issue 26 §2), which the service keeps for its detach time.
 */
export interface ShellTab {
  key: string;
  clusterId: string;
  /** The service instance the session lives in (sessions are not shared between instances). */
  serviceUrl: string;
  node: string;
  /** Known once the first ticket came back; a reload attaches to it. */
  sessionId?: string;
  /** A new session starts here (E-File's "open a shell here"). */
  cwd?: string;
}

const KEY = 'hpc.eshell.tabs';

export function loadTabs(): ShellTab[] {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list)
      ? (list as ShellTab[]).filter((t) => t && typeof t.key === 'string' && typeof t.serviceUrl === 'string')
      : [];
  } catch {
    return [];
  }
}

export function saveTabs(tabs: readonly ShellTab[]): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(tabs));
  } catch {
    /* storage full or denied: tabs just do not survive a reload */
  }
}

const FONT_KEY = 'hpc.eshell.fontSize';
export const FONT_SIZES = { min: 10, max: 28, default: 14 };

export function loadFontSize(): number {
  const n = Number(window.localStorage.getItem(FONT_KEY));
  return n >= FONT_SIZES.min && n <= FONT_SIZES.max ? n : FONT_SIZES.default;
}

export function saveFontSize(n: number): void {
  try {
    window.localStorage.setItem(FONT_KEY, String(n));
  } catch {
    /* not kept */
  }
}
