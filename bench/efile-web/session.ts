import { requestTimeHeaders } from '@hpc/api-client';

export interface NodeSession {
  cookie: string;
  /** The per-cluster efile token of `/api/user/info`. */
  token(clusterId: string): string;
}

/** Logs in to the portal from Node as the browser does (request-time header, cookies) and reads the token list. */
export async function logIn(baseUrl: string, username: string, password: string): Promise<NodeSession> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await requestTimeHeaders()) },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const info = await fetch(`${baseUrl}/api/user/info`, {
    headers: { cookie, ...(await requestTimeHeaders()) },
  });
  const body = (await info.json()) as { data: { tokenList: { clusterId: string; token: string }[] } };
  const tokens = new Map(body.data.tokenList.map((t) => [t.clusterId, t.token]));
  return {
    cookie,
    token(clusterId) {
      const t = tokens.get(clusterId);
      if (!t) throw new Error(`no token for cluster ${clusterId}`);
      return t;
    },
  };
}
