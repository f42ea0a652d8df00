import { Readable } from 'node:stream';
import { ApiClient, efileApi, type EfileCalls } from '@hpc/api-client';
import type { AppServer } from '@hpc/server-kit';

/**
 * The portal's client of a cluster's efile: `@hpc/api-client`'s (the same typed calls of contracts' efile routes
 * the web and the fast-transfer client make), so the portal has no efile client of its own to keep in step. A
 * service URL is absolute in production (`https://efile.cluster/efile`) and fetched over HTTP; the all-in-one
 * start registers relative URLs (`/efile/11250`) for the efile instances it mounts on the same server, and those
 * are answered by `app.inject`, in process, so the portal need not know the address it listens on.
 */
export function portalEfileFetch(app: AppServer): typeof fetch {
  return async (input, init = {}) => {
    // ApiClient calls with the URL as a string.
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('/')) {
      const body = init.body;
      const res = await app.inject({
        method: (init.method ?? 'GET') as 'GET',
        url,
        headers: init.headers as Record<string, string>,
        payload: body instanceof ReadableStream ? Readable.fromWeb(body) : (body as string | undefined),
        signal: init.signal ?? undefined,
      });
      return new Response(res.rawPayload, {
        status: res.statusCode,
        headers: Object.entries(res.headers).flatMap(([k, v]) =>
          v === undefined ? [] : (Array.isArray(v) ? v : [String(v)]).map((x) => [k, x] as [string, string]),
        ),
      });
    }
    if (!/^https?:\/\//.test(url)) throw new TypeError('The file service URL is not http(s)');
    // Node's fetch needs `duplex` for a streamed body; an efile never redirects its callers.
    return fetch(url, { ...init, duplex: 'half', redirect: 'error' });
  };
}

/** The efile calls of one instance at `base` with the user's cluster token; no deadline unless the call sets one. */
export function portalEfileClient(
  app: AppServer,
  base: string,
  clusterId: string,
  token: string,
  timeoutMs = 0,
): EfileCalls {
  const client = new ApiClient({
    baseUrl: base.replace(/\/$/, ''),
    fetch: portalEfileFetch(app),
    headers: () => ({ token }),
    timeoutMs,
  });
  return efileApi(client, clusterId);
}
