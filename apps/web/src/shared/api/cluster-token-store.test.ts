import { describe, expect, it, vi } from 'vitest';
import { createClusterTokenStore, refreshDelay, type TimerApi, type TokenEntry } from './cluster-token-store';

let serial = 0;
/** A token entry that expires at `expSeconds` (the portal's `expiresAt`, in ms); the token text is opaque here. */
const jwt = (expSeconds: number) => ({ token: `token-${++serial}`, expiresAt: expSeconds * 1000 });

/** Timers that fire only when the test says so. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let id = 0;
  const timers: TimerApi = {
    set: (fn, ms) => {
      pending.set(++id, { fn, ms });
      return id;
    },
    clear: (h) => void pending.delete(h as number),
  };
  return {
    timers,
    pending,
    fire() {
      const all = [...pending.values()];
      pending.clear();
      for (const t of all) t.fn();
    },
  };
}

const T0 = 1_700_000_000_000;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('refreshDelay', () => {
  it('refreshes a margin before the earliest expiry', () => {
    const list = [
      { clusterId: '1', ...jwt(T0 / 1000 + 12 * 3600) },
      { clusterId: '2', ...jwt(T0 / 1000 + 3600) },
    ];
    expect(refreshDelay(list, T0, 5 * 60_000)).toBe(3600_000 - 5 * 60_000);
  });

  it('refreshes short-lived tokens at half their remaining life, never in a tight loop', () => {
    expect(refreshDelay([{ clusterId: '1', ...jwt(T0 / 1000 + 120) }], T0, 5 * 60_000)).toBe(60_000);
    expect(refreshDelay([{ clusterId: '1', ...jwt(T0 / 1000 - 10) }], T0, 5 * 60_000)).toBe(5_000);
  });

  it("reads the portal's expiresAt, whatever the token's text", () => {
    const list = [{ clusterId: '1', token: 'opaque', expiresAt: T0 + 3600_000 }];
    expect(refreshDelay(list, T0, 5 * 60_000)).toBe(3600_000 - 5 * 60_000);
  });

  it('plans nothing without a readable expiry', () => {
    expect(refreshDelay([], T0, 1)).toBeNull();
    expect(refreshDelay([{ clusterId: '1', token: 'opaque', expiresAt: Number.NaN }], T0, 1)).toBeNull();
  });
});

describe('createClusterTokenStore', () => {
  it('keeps the tokens by cluster and plans a refresh before expiry', async () => {
    const m = manualTimers();
    const next = [{ clusterId: '11250', ...jwt(T0 / 1000 + 7200) }];
    const refresh = vi.fn(async () => next);
    const store = createClusterTokenStore({ refresh, now: () => T0, timers: m.timers });
    const first = jwt(T0 / 1000 + 3600);
    store.update([{ clusterId: '11250', ...first }]);
    expect(store.peek('11250')).toBe(first.token);
    expect([...m.pending.values()].map((p) => p.ms)).toEqual([3600_000 - 300_000]);

    m.fire();
    await flush();
    expect(refresh).toHaveBeenCalledOnce();
    expect(store.peek('11250')).toBe(next[0]!.token);
    expect([...m.pending.values()].map((p) => p.ms)).toEqual([7200_000 - 300_000]);
  });

  it('get refreshes first when the token is about to expire', async () => {
    let now = T0;
    const fresh = jwt(T0 / 1000 + 7200);
    const refresh = vi.fn(async () => [{ clusterId: '11250', ...fresh }]);
    const store = createClusterTokenStore({ refresh, now: () => now, timers: manualTimers().timers });
    store.update([{ clusterId: '11250', ...jwt(T0 / 1000 + 600) }]);
    expect(await store.get('11250')).not.toBe(fresh.token);
    now = T0 + 590_000; // a laptop that slept through the planned refresh
    expect(await store.get('11250')).toBe(fresh.token);
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('get gives the old token when the refresh fails, and retries later', async () => {
    const m = manualTimers();
    const old = jwt(T0 / 1000 - 1);
    const refresh = vi.fn(async (): Promise<TokenEntry[]> => {
      throw new Error('offline');
    });
    const store = createClusterTokenStore({ refresh, now: () => T0, timers: m.timers, retryMs: 30_000 });
    store.update([{ clusterId: '11250', ...old }]);
    expect(await store.get('11250')).toBe(old.token);
    expect([...m.pending.values()].map((p) => p.ms)).toEqual([30_000]);
  });

  it('shares one refresh among concurrent callers', async () => {
    let resolve: (v: TokenEntry[]) => void = () => undefined;
    const refresh = vi.fn(() => new Promise<TokenEntry[]>((r) => (resolve = r)));
    const store = createClusterTokenStore({ refresh, now: () => T0, timers: manualTimers().timers });
    const p = Promise.all([store.refresh(), store.refresh()]);
    resolve([{ clusterId: '1', token: 't', expiresAt: T0 + 3600_000 }]);
    await p;
    expect(refresh).toHaveBeenCalledOnce();
    expect(store.peek('1')).toBe('t');
  });

  it('returns nothing for a cluster without a token, without asking the portal', async () => {
    const refresh = vi.fn(async () => []);
    const store = createClusterTokenStore({ refresh, now: () => T0, timers: manualTimers().timers });
    store.update([{ clusterId: '1', ...jwt(T0 / 1000 + 3600) }]);
    expect(await store.get('2')).toBeUndefined();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('clear drops tokens and the planned refresh, and ignores a refresh that was under way', async () => {
    const m = manualTimers();
    let resolve: (v: TokenEntry[]) => void = () => undefined;
    const store = createClusterTokenStore({
      refresh: () => new Promise((r) => (resolve = r)),
      now: () => T0,
      timers: m.timers,
    });
    const seen = vi.fn();
    store.subscribe(seen);
    store.update([{ clusterId: '1', ...jwt(T0 / 1000 + 3600) }]);
    const p = store.refresh();
    store.clear();
    resolve([{ clusterId: '1', token: 'late', expiresAt: T0 + 3600_000 }]);
    await p;
    expect(store.peek('1')).toBeUndefined();
    expect(m.pending.size).toBe(0);
    expect(seen).toHaveBeenCalledTimes(2);
  });
});
