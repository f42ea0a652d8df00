import type { ClusterTokenEntry } from '@hpc/contracts';

/** What the store needs of a `tokenList` entry: the portal sends each token's expiry (`expiresAt`, ms). */
export type TokenEntry = Pick<ClusterTokenEntry, 'clusterId' | 'token' | 'expiresAt'>;

/** The expiry of an entry in ms, as the portal sent it; null when it is not a finite number. */
export const entryExpiry = (e: TokenEntry): number | null =>
  typeof e.expiresAt === 'number' && Number.isFinite(e.expiresAt) ? e.expiresAt : null;

export interface TimerApi {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface ClusterTokenStoreOptions {
  /** Fetches a new token list (the portal's `POST /api/auth/refresh`). */
  refresh: () => Promise<readonly TokenEntry[]>;
  now?: () => number;
  /** How long before the earliest expiry to refresh (default 5 minutes). */
  marginMs?: number;
  /** When a refresh failed, how long to wait before the next try (default 30 s). */
  retryMs?: number;
  timers?: TimerApi;
}

export interface ClusterTokenStore {
  /** Replaces the tokens with a fresh `tokenList` and plans the next refresh. */
  update(list: readonly TokenEntry[]): void;
  /** The current token of a cluster, as it is. */
  peek(clusterId: string): string | undefined;
  /** A token of the cluster that is not about to expire: refreshes first when it is (e.g. after a sleeping laptop). */
  get(clusterId: string): Promise<string | undefined>;
  /** Refreshes now; concurrent calls share one request. */
  refresh(): Promise<void>;
  /** Called after every change of the tokens; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Drops every token and the planned refresh (logout). */
  clear(): void;
}

/** A token with less than this left is refreshed before use rather than sent to be refused. */
const MIN_VALIDITY_MS = 30_000;
/** Never plan refreshes closer than this, so a portal issuing very short tokens cannot make us loop. */
const MIN_DELAY_MS = 5_000;
/** setTimeout's largest delay (about 24.8 days); longer delays would fire at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

const browserTimers: TimerApi = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * When to refresh a token list: a margin before the earliest expiry, but never later than half of the remaining
 * lifetime, so that short-lived tokens are still refreshed before they expire. Null when no token has an expiry.
 */
export function refreshDelay(list: readonly TokenEntry[], now: number, marginMs: number): number | null {
  const exps = list.map(entryExpiry).filter((x): x is number => x !== null);
  if (exps.length === 0) return null;
  const remaining = Math.min(...exps) - now;
  const lead = Math.min(marginMs, remaining / 2);
  return Math.min(Math.max(remaining - lead, MIN_DELAY_MS), MAX_DELAY_MS);
}

/** The per-cluster token store: keeps `tokenList` and refreshes it a few minutes before a token expires. */
export function createClusterTokenStore(opts: ClusterTokenStoreOptions): ClusterTokenStore {
  const now = opts.now ?? Date.now;
  const marginMs = opts.marginMs ?? 5 * 60_000;
  const retryMs = opts.retryMs ?? 30_000;
  const timers = opts.timers ?? browserTimers;
  const listeners = new Set<() => void>();
  let tokens = new Map<string, TokenEntry>();
  let timer: unknown = null;
  let inflight: Promise<void> | null = null;
  let generation = 0;

  const plan = (ms: number | null) => {
    if (timer !== null) timers.clear(timer);
    timer = ms === null ? null : timers.set(() => void store.refresh().catch(() => undefined), ms);
  };

  const store: ClusterTokenStore = {
    update(list) {
      tokens = new Map(list.map((e) => [String(e.clusterId), e]));
      plan(refreshDelay(list, now(), marginMs));
      for (const l of listeners) l();
    },
    peek: (clusterId) => tokens.get(clusterId)?.token,
    async get(clusterId) {
      const entry = tokens.get(clusterId);
      const exp = entry ? entryExpiry(entry) : null;
      if (exp !== null && exp - now() < MIN_VALIDITY_MS) {
        // Keep the old token when the refresh fails: the cluster then answers 1406 and the caller reports it.
        await store.refresh().catch(() => undefined);
      }
      return tokens.get(clusterId)?.token;
    },
    refresh() {
      if (inflight) return inflight;
      const started = generation;
      inflight = opts
        .refresh()
        .then(
          (list) => {
            if (started === generation) store.update(list);
          },
          (e: unknown) => {
            if (started === generation) plan(retryMs);
            throw e;
          },
        )
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      generation++;
      plan(null);
      tokens = new Map();
      for (const l of listeners) l();
    },
  };
  return store;
}
