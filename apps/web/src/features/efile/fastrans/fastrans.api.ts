import type { FastransLocalCall, FastransPresence } from '@hpc/contracts';
import { apiClient } from '../../../shared/api/client';

/** The portal's fast-transfer calls (spec §7, under the model-zoo file-service prefix; docs/FASTRANS.md). */
const PREFIX = '/model-zoo/proxy/efile/fastrans';

export interface FastransLogin {
  token: string;
  clusterUserName: string;
  clusterId: string;
  homePath: string;
  expiresAt: number;
}

export const fastransApi = {
  /** The day token the client logs in with; `directory` must be inside the home (else 1030). */
  login: (directory: string, clusterId: string) =>
    apiClient.post<FastransLogin>(`${PREFIX}/login`, {
      json: { directory: encodeURIComponent(directory), clusterId },
    }),
  /** spec §6: write permission on the target folder before a fast upload. */
  canWrite: (path: string, clusterId: string) =>
    apiClient.post<{ allowded: boolean }>(`${PREFIX}/checkPermission`, {
      json: { path, permissionAction: 'write', clusterId },
    }),
  /**
   * The user's clients that called the portal lately (heartbeat or relay poll), most recent first: running but
   * unreachable, and which machines the relay can reach.
   */
  presence: () => apiClient.get<FastransPresence>(`${PREFIX}/presence`),
  /**
   * One local-protocol action through the portal to the client's outbound connection (the second path); `client`
   * names which of the user's clients (required by the portal when several poll); `waitMs`, how long the portal
   * waits for its answer (default 25 s).
   */
  relay: (m: FastransLocalCall, client?: string, waitMs?: number) =>
    apiClient.request<unknown>(`${PREFIX}/relay`, {
      method: 'POST',
      json: { ...m, ...(client ? { client } : {}), ...(waitMs ? { wait: waitMs } : {}) },
      timeoutMs: 40_000,
    }),
};
