import { FastransPageRoutes, type FastransLocalCall } from '@hpc/contracts';
import { apiClient } from '../../shared/api/client';

/**
 * The portal's fast-transfer calls (spec §7, under the model-zoo file-service prefix; docs/FASTRANS.md), each one
 * call of contracts' `FastransPageRoutes` (the build drops their schemas).
 */
export const fastransApi = {
  /** The day token the client logs in with; `directory` must be inside the home (else 1030). */
  login: (directory: string, clusterId: string) =>
    apiClient.request(FastransPageRoutes.login, {
      body: { directory: encodeURIComponent(directory), clusterId },
    }),
  /** spec §6: write permission on the target folder before a fast upload. */
  canWrite: (path: string, clusterId: string) =>
    apiClient.request(FastransPageRoutes.checkPermission, {
      body: { path, permissionAction: 'write', clusterId },
    }),
  /**
   * Whether a local client's answer to `check` proves the user's client key (`proof` of `sign`): the page sends a
   * client nothing else, no day token above all, before the portal says yes.
   */
  verifyClient: (sign: string, proof: string) =>
    apiClient.request(FastransPageRoutes.verifyClient, { body: { sign, proof } }),
  /** The user's client key got out: a new one for later downloads; the fast-transfer day tokens are revoked. */
  revokeClientKey: () => apiClient.request(FastransPageRoutes.revokeClientKey),
  /**
   * The user's clients that called the portal lately (heartbeat or relay poll), most recent first: running but
   * unreachable, and which machines the relay can reach.
   */
  presence: () => apiClient.request(FastransPageRoutes.presence),
  /**
   * One local-protocol action through the portal to the client's outbound connection (the second path); `client`
   * names which of the user's clients (required by the portal when several poll); `waitMs`, how long the portal
   * waits for its answer (default 25 s). Resolves to the client's answer data.
   */
  relay: (m: FastransLocalCall, client?: string, waitMs?: number) =>
    apiClient.request(
      FastransPageRoutes.relay,
      { body: { ...m, ...(client ? { client } : {}), ...(waitMs ? { wait: waitMs } : {}) } },
      { timeoutMs: 40_000 },
    ),
};
