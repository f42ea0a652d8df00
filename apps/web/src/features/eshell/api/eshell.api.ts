import { ESHELL_WS_PATH, EshellRoutes, type EshellTicketBody } from '@hpc/contracts';
import { clusterServiceClient } from '../../clusters';

/**
 * The shell service of one cluster (issue 26), as the browser calls it: that cluster's token in the `token` header
 * for the calls; the terminal's socket gets a one-time ticket instead (never the token in an address).
 */
export function createEshellApi(clusterId: string, baseUrl: string) {
  const client = clusterServiceClient(clusterId, baseUrl);
  return {
    clusterId,
    baseUrl,
    check: () => client.request(EshellRoutes.check),
    ticket: (body: EshellTicketBody) => client.request(EshellRoutes.ticket, { body }),
    sessions: () => client.request(EshellRoutes.sessions),
    close: (sessionId: string) => client.request(EshellRoutes.close, { body: { sessionId } }),
    /** The socket's address: the service's URL (absolute, or relative to the page) with ws: or wss:. */
    socketUrl: () => {
      const u = new URL(`${baseUrl.replace(/\/+$/, '')}${ESHELL_WS_PATH}`, window.location.href);
      u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
      return u.toString();
    },
  };
}
export type EshellApi = ReturnType<typeof createEshellApi>;
