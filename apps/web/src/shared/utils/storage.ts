/**
 * Small wrappers over Web Storage: private browsing and disabled storage throw on access, and a preference that
 * cannot be saved must never break the page.
 */
function safe(area: () => Storage) {
  return {
    get(key: string): string | null {
      try {
        return area().getItem(key);
      } catch {
        return null;
      }
    },
    set(key: string, value: string): void {
      try {
        area().setItem(key, value);
      } catch {
        // Quota or privacy mode: the preference simply is not remembered.
      }
    },
  };
}

export const local = safe(() => window.localStorage);
export const session = safe(() => window.sessionStorage);

/** Keys of everything the web app remembers, in one place so they never collide. */
export const StorageKeys = {
  language: 'hpc.language',
  theme: 'hpc.theme',
  cardLayout: 'hpc.catalog.layout',
  search: (section: string) => `hpc.search.${section}`,
  /** The fast-transfer client the page drives through the relay, when the user has several (for the tab's session). */
  fastransRelayClient: 'hpc.fastrans.relayClient',
} as const;
