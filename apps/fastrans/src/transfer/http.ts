import http from 'node:http';
import https from 'node:https';

/**
 * HTTP/1.1 with keep-alive and several connections per server: for bulk data several connections beat one
 * multiplexed one (field notes), and each range stream is its own request.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Thrown for network failures (no answer): the engine retries these with backoff on another server. */
export class NetworkError extends Error {}

export function request(
  url: string,
  opts: {
    method: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    timeoutMs?: number;
    /** Receive the body as a stream instead of a buffer. */
    onResponse?: (res: http.IncomingMessage) => Promise<void>;
  },
): Promise<HttpResult> {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      u,
      {
        method: opts.method,
        headers: {
          ...opts.headers,
          ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}),
        },
        agent: agents[u.protocol as 'http:' | 'https:'],
        timeout: opts.timeoutMs ?? 120_000,
      },
      (res) => {
        if (opts.onResponse && res.statusCode && res.statusCode < 300) {
          opts
            .onResponse(res)
            .then(
              () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.alloc(0) }),
              reject,
            );
          return;
        }
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
        );
        res.on('error', (e) => reject(new NetworkError(e.message)));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => reject(e instanceof NetworkError ? e : new NetworkError(e.message)));
    req.end(opts.body);
  });
}
