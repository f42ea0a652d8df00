import type { Cluster } from '@hpc/contracts';
import { checkServiceHealth, DEFAULT_HEALTH_TIMEOUT_MS } from './health-check';
import { roundRobinOrder } from './round-robin';
import { ServiceDiscoveryError } from './service-errors';
import { clusterServices, type ServiceKind } from './service-list';

/** The part of `Storage` the cache needs; `sessionStorage` in the browser, a Map-backed fake in tests. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> &
  Partial<Pick<Storage, 'key' | 'length'>>;

export interface ServiceDiscoveryOptions {
  /** The DOM `fetch` (injected so the module runs in Node tests and against real servers alike). */
  fetch: typeof fetch;
  /** Session cache that survives reloads of the tab; null keeps the cache in memory only. */
  storage?: KeyValueStorage | null;
  healthTimeoutMs?: number;
}

export type DiscoveryCluster = Pick<Cluster, 'clusterId' | 'centerName' | 'params'>;

export interface ServiceDiscovery {
  /**
   * The base URL of a working `kind` service of `cluster` for `userId`, or a {@link ServiceDiscoveryError}
   * (`NoService`, `NoEnableService`, `AccessError`). A URL that answered once is reused for the session.
   */
  resolve(cluster: DiscoveryCluster, kind: ServiceKind, userId: string | number): Promise<string>;
  /**
   * The URL `resolve` will most likely answer, without any request: the cached one, else the first enabled instance
   * in the user's round-robin order (the one checked first). Null when there is none. For work that may start on a
   * guess and is thrown away when `resolve` answers otherwise (the E-File folder prefetch).
   */
  likely(cluster: DiscoveryCluster, kind: ServiceKind, userId: string | number): string | null;
  /** Forgets the cached URL, e.g. after a call to it failed, so that the next `resolve` checks again. */
  invalidate(clusterId: string, kind: ServiceKind, userId: string | number): void;
  /** Forgets every cached URL, in memory and in the session storage (logout). */
  clear(): void;
}

const STORAGE_PREFIX = 'hpc.service:';
const keyOf = (userId: string | number, clusterId: string, kind: ServiceKind) =>
  `${STORAGE_PREFIX}${String(userId)}:${clusterId}:${kind}`;

/** Storage can throw (quota, privacy modes); the cache is an optimisation, so failures are ignored. */
function safely<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

/** Creates the service-discovery module of spec §4 (round-robin by user id, health check, failover, cache). */
export function createServiceDiscovery(opts: ServiceDiscoveryOptions): ServiceDiscovery {
  const memory = new Map<string, string>();
  const inflight = new Map<string, Promise<string>>();
  const storage = opts.storage ?? null;
  const timeoutMs = opts.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  let generation = 0;

  async function probe(key: string, cluster: DiscoveryCluster, kind: ServiceKind, userId: string | number) {
    const started = generation;
    const enabled = clusterServices(cluster, kind).filter((e) => e.enabled);
    const tried: string[] = [];
    for (const i of roundRobinOrder(userId, enabled.length)) {
      const url = enabled[i]!.url;
      tried.push(url);
      if (await checkServiceHealth(opts.fetch, url, kind, timeoutMs)) {
        // A clear() during the probe (logout) must not resurrect the entry for the next user of the tab.
        if (started === generation) {
          memory.set(key, url);
          safely(() => storage?.setItem(key, url));
        }
        return url;
      }
    }
    throw new ServiceDiscoveryError({
      kind: 'AccessError',
      clusterId: cluster.clusterId,
      centerName: cluster.centerName,
      service: kind,
      tried,
    });
  }

  return {
    async resolve(cluster, kind, userId) {
      const entries = clusterServices(cluster, kind);
      const base = { clusterId: cluster.clusterId, centerName: cluster.centerName, service: kind };
      if (entries.length === 0) throw new ServiceDiscoveryError({ ...base, kind: 'NoService' });
      const enabled = entries.filter((e) => e.enabled);
      if (enabled.length === 0) throw new ServiceDiscoveryError({ ...base, kind: 'NoEnableService' });

      const key = keyOf(userId, cluster.clusterId, kind);
      const cached = memory.get(key) ?? safely(() => storage?.getItem(key)) ?? null;
      // A cached URL counts only while the centre still lists it as enabled (operators may switch it off).
      if (cached && enabled.some((e) => e.url === cached)) {
        memory.set(key, cached);
        return cached;
      }
      if (cached) {
        memory.delete(key);
        safely(() => storage?.removeItem(key));
      }

      let pending = inflight.get(key);
      if (!pending) {
        pending = probe(key, cluster, kind, userId).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
    likely(cluster, kind, userId) {
      const enabled = clusterServices(cluster, kind).filter((e) => e.enabled);
      const key = keyOf(userId, cluster.clusterId, kind);
      const cached = memory.get(key) ?? safely(() => storage?.getItem(key)) ?? null;
      if (cached && enabled.some((e) => e.url === cached)) return cached;
      const first = roundRobinOrder(userId, enabled.length)[0];
      return first === undefined ? null : enabled[first]!.url;
    },
    invalidate(clusterId, kind, userId) {
      const key = keyOf(userId, clusterId, kind);
      memory.delete(key);
      safely(() => storage?.removeItem(key));
    },
    clear() {
      generation++;
      memory.clear();
      inflight.clear();
      safely(() => {
        if (!storage?.key || storage.length === undefined) return;
        const ours: string[] = [];
        for (let i = 0; i < storage.length; i++) {
          const k = storage.key(i);
          if (k?.startsWith(STORAGE_PREFIX)) ours.push(k);
        }
        for (const k of ours) storage.removeItem(k);
      });
    },
  };
}
