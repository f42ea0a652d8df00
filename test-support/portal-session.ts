import {
  ApiClient,
  requestTimeHeaders,
  type ApiClientOptions,
  type CallResult,
  type DataOf,
} from '@hpc/api-client';
import type { CurrentUserResponse, LoginBody } from '@hpc/contracts';

/**
 * A client of the portal (or an efile instance) from Node, for tests and benches: no deadline of its own (the
 * test's timeout bounds a call), the request-time header the portal checks, and whatever else `opts` adds.
 */
export const nodeClient = (baseUrl: string, opts: Partial<ApiClientOptions> = {}) =>
  new ApiClient({ baseUrl, timeoutMs: 0, ...opts });

/** A client of the portal at `base` that carries a session's cookie, as the browser would. */
export const sessionClient = (base: string, cookie: () => string) =>
  nodeClient(base, { headers: async () => ({ cookie: cookie(), ...(await requestTimeHeaders()) }) });

/**
 * Logs in as the page does and keeps the session's cookies (`name=value`), which the envelope does not carry: they
 * are in the answer's Set-Cookie headers. `headers` adds what the layout needs (the public origin of login CSRF).
 */
export async function portalLoginCall(
  base: string,
  body: LoginBody,
  headers: Record<string, string> = {},
): Promise<{ result: CallResult<DataOf<typeof CurrentUserResponse>>; cookies: string[] }> {
  let cookies: string[] = [];
  const client = nodeClient(base, {
    headers: () => requestTimeHeaders(),
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
      return res;
    },
  });
  const result = await client.call<DataOf<typeof CurrentUserResponse>>('/api/auth/login', {
    method: 'POST',
    json: body,
    headers,
  });
  return { result, cookies };
}
