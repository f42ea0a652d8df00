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
  /** Whether the user's client called the portal lately (its heartbeat or relay poll): running but unreachable. */
  presence: () => apiClient.get<{ running: boolean; version: string | null }>(`${PREFIX}/presence`),
  /** One local-protocol action through the portal to the client's outbound connection (the second path). */
  relay: (m: Record<string, unknown>) =>
    apiClient.request<unknown>(`${PREFIX}/relay`, { method: 'POST', json: m, timeoutMs: 40_000 }),
};
