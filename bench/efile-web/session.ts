import { identityApi } from '@hpc/api-client';
import { portalLoginCall, sessionClient } from '../../test-support/portal-session';

export interface NodeSession {
  cookie: string;
  /** The per-cluster efile token of `/api/user/info`. */
  token(clusterId: string): string;
}

/** Logs in to the portal from Node as the browser does (request-time header, cookies) and reads the token list. */
export async function logIn(baseUrl: string, username: string, password: string): Promise<NodeSession> {
  const { result, cookies } = await portalLoginCall(baseUrl, { username, password });
  if (!result.ok) throw new Error(`login failed: ${result.status} ${result.code} ${result.msg}`);
  const cookie = cookies.join('; ');
  const info = await identityApi(sessionClient(baseUrl, () => cookie)).user.info();
  const tokens = new Map(info.tokenList.map((t) => [t.clusterId, t.token]));
  return {
    cookie,
    token(clusterId) {
      const t = tokens.get(clusterId);
      if (!t) throw new Error(`no token for cluster ${clusterId}`);
      return t;
    },
  };
}
