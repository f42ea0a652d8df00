import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/**
 * HTTP/1.1 with keep-alive and several connections per server: for bulk data several connections beat one
 * multiplexed one (field notes), and each range stream is its own request.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/** Thrown for network failures (no answer): the engine retries these with backoff on another server. */
export class NetworkError extends Error {}

/** Statuses whose answer has no body: a Response must be built without one. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for `ApiClient` over node:http with the agents above, so the typed calls of `@hpc/api-client` keep the
 * client's connection pool. `idleMs` is a socket inactivity limit, not a deadline: a 64 MiB range on a slow link
 * may take minutes, but a connection silent for `idleMs` is given up. Bodies are strings or bytes (JSON, forms,
 * ranges, tars); the answer's body is streamed, so an NDJSON manifest is read line by line as it arrives.
 */
export function nodeFetch(idleMs = 120_000): typeof fetch {
  return (input, init = {}) => {
    const u = new URL(input instanceof Request ? input.url : input);
    const mod = u.protocol === 'https:' ? https : http;
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      return Promise.reject(new TypeError('nodeFetch sends strings and bytes only'));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    if (body !== undefined && body !== null) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const req = mod.request(
        u,
        {
          method: init.method ?? 'GET',
          headers,
          agent: agents[u.protocol as 'http:' | 'https:'],
          timeout: idleMs,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) h.append(k, one);
          const empty = NO_BODY.has(status) || init.method === 'HEAD';
          if (empty) res.resume();
          const stream = empty ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, statusText: res.statusMessage, headers: h }));
        },
      );
      const signal = init.signal;
      const onAbort = () => req.destroy(new Error('aborted'));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal?.removeEventListener('abort', onAbort));
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body ?? undefined);
    });
  };
}
