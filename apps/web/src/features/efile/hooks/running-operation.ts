import { useSyncExternalStore } from 'react';
import { clusterTokens } from '../../clusters';

/** The copy or move running on the server for this tab (one per user at a time, spec §4). */
export interface RunningOperation {
  id: string;
  mode: 'copy' | 'move';
  clusterId: string;
  /** Base URL of the efile instance that runs it. */
  baseUrl: string;
}

let current: RunningOperation | null = null;
const listeners = new Set<() => void>();

/**
 * The tab's running operation. It lives outside React, like the upload list, so moving between pages of the portal
 * keeps its progress; leaving the site ends it (see {@link cancelOnLeave}).
 */
export const runningOperation = {
  get: (): RunningOperation | null => current,
  set: (op: RunningOperation | null): void => {
    current = op;
    for (const l of listeners) l();
  },
  subscribe: (fn: () => void): (() => void) => {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

export const useRunningOperation = () =>
  useSyncExternalStore(runningOperation.subscribe, runningOperation.get);

/**
 * Asks efile to cancel `op` in a request that outlives the page: `fetch` with `keepalive` (sendBeacon cannot set the
 * `token` header). Synchronous on purpose: the token is taken as it is, since nothing can be awaited in `pagehide`.
 */
export function sendCancelOnLeave(
  op: RunningOperation,
  token: string | undefined,
  doFetch: typeof fetch = (i, init) => window.fetch(i, init),
): void {
  const body = new URLSearchParams({ operationId: op.id, clusterId: op.clusterId }).toString();
  try {
    void doFetch(`${op.baseUrl.replace(/\/+$/, '')}/operationCancel.action`, {
      method: 'POST',
      keepalive: true,
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
        token: token ?? '',
      },
      body,
      credentials: 'same-origin',
    }).catch(() => undefined);
  } catch {
    // Nothing can be reported once the page is going away.
  }
}

/** Leaving the site ends the running copy or move (spec §4 "leaving the site ends the process"). */
export function cancelOnLeave(): void {
  const op = current;
  if (!op) return;
  current = null;
  sendCancelOnLeave(op, clusterTokens.peek(op.clusterId));
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', cancelOnLeave);
