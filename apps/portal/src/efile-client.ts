import { Readable } from 'node:stream';
import { ApiClient, ApiError, efileApi, type EfileCalls } from '@hpc/api-client';
import { CommonCodes, ErrorCodes, isErrorCode, preferredMessageLanguage } from '@hpc/contracts';
import { AppError, type AppServer } from '@hpc/server-kit';
import { PortalText } from './messages';

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

/**
 * The efile calls of one instance at `base` with the user's cluster token; no deadline unless the call sets one.
 * `lang` is the user's `Accept-Language`: efile then writes its refusals in the user's language (`efileFailure`).
 */
export function portalEfileClient(
  app: AppServer,
  base: string,
  clusterId: string,
  token: string | undefined,
  timeoutMs = 0,
  lang?: string,
): EfileCalls {
  return efileCallsOver(portalEfileFetch(app), base, clusterId, token, timeoutMs, lang);
}

/** The same calls over any `fetch` (a test's fake efile). */
export function efileCallsOver(
  fetcher: typeof fetch,
  base: string,
  clusterId: string,
  token: string | undefined,
  timeoutMs = 0,
  lang?: string,
): EfileCalls {
  const headers: Record<string, string> = {
    ...(token ? { token } : {}),
    ...(lang ? { 'accept-language': lang } : {}),
  };
  const client = new ApiClient({
    baseUrl: base.replace(/\/$/, ''),
    fetch: fetcher,
    headers: () => headers,
    timeoutMs,
  });
  return efileApi(client, clusterId);
}

/**
 * An efile call's failure as the portal's own error: a refusal keeps efile's code and message (the copy shows the
 * user why), an answer that is not an envelope is "1002", no answer at all "1001"; a cancelled call stays as it is.
 */
export function efileFailure(e: unknown): unknown {
  if (!(e instanceof ApiError) || e.kind === 'cancelled') return e;
  if (e.kind === 'api') {
    const code = isErrorCode(e.code) ? e.code : CommonCodes.remoteCall;
    // efile's own message, relayed as it came (its words, not the portal's catalogue's). Written in Chinese (asked
    // in the user's language; its Content-Language says so), it is the Chinese of a pair whose English is the
    // code's: as a plain string, the portal's answer to a Chinese reader would call it English, and the page would
    // show the code's text alone.
    if (preferredMessageLanguage(e.lang ?? undefined) === 'zh-CN')
      return new AppError(code, { en: ErrorCodes[code].en, zh: e.msg });
    return new AppError(code, e.msg);
  }
  if (e.kind === 'http') return new AppError(CommonCodes.remoteCall, PortalText.fileServiceHttp(e.status));
  return new AppError(CommonCodes.unavailable, PortalText.fileServiceUnreachable(e.msg));
}
