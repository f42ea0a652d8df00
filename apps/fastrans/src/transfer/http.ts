import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { rawRangeGet } from './range-get';

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

/** The largest range answer read whole in Node's own terms (efile's digest ranges are at most 64 MiB). */
const WHOLE_RANGE_MAX = 64 * 1024 * 1024;

/**
 * The body of a range answer (206) as it was received: one buffer of its length (from `rangeBody`, a pool), filled
 * from the socket's pieces, no web stream in between. Turning each 64 KiB piece into a web stream chunk, then one
 * ArrayBuffer, then a Buffer (and a fresh 16 MiB of external memory per range, which V8 answers with full
 * collections) cost the download more CPU than its hashing (issue 24 §1: the client's CPU bounded the download).
 * The Response carries the same bytes as a stream for any other reader; whoever takes them here gives the buffer
 * back to its pool once written.
 */
const rangeBodies = new WeakMap<Response, Buffer>();
export const rangeBodyOf = (res: Response): Buffer | undefined => rangeBodies.get(res);

export interface NodeFetchOptions {
  /** Inactivity limit of a socket (not a deadline). */
  idleMs?: number;
  /** A buffer of at least `length` bytes for a range answer's body (default: a new one). */
  rangeBody?: (length: number) => Buffer;
  /**
   * Range GETs over plain HTTP read straight into `rangeBody`'s buffer (range-get.ts; default on). Off, every
   * answer goes through node:http (the tests compare both).
   */
  rawRanges?: boolean;
}

/** A Response of a range answer's bytes, the buffer kept for `rangeBodyOf`. */
function rangeAnswer(body: Buffer, status: number, statusText: string, headers: Headers): Response {
  // Not `new Response(body)`: undici copies a byte body at once (0.8 s per GiB in a profile).
  const bytes = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(body);
      c.close();
    },
  });
  const answer = new Response(bytes, { status, statusText, headers });
  rangeBodies.set(answer, body);
  return answer;
}

/**
 * A `fetch` for `ApiClient` over node:http with the agents above, so the typed calls of `@hpc/api-client` keep the
 * client's connection pool. `idleMs` is a socket inactivity limit, not a deadline: a 64 MiB range on a slow link
 * may take minutes, but a connection silent for `idleMs` is given up. Bodies are strings or bytes (JSON, forms,
 * ranges, tars); the answer's body is streamed, so an NDJSON manifest is read line by line as it arrives.
 */
export function nodeFetch(o: NodeFetchOptions = {}): typeof fetch {
  const idleMs = o.idleMs ?? 120_000;
  const rangeBody = o.rangeBody ?? ((n: number) => Buffer.allocUnsafe(n));
  const ordinary = (u: URL, init: RequestInit, headers: Record<string, string>) => {
    const mod = u.protocol === 'https:' ? https : http;
    const body = init.body as string | Uint8Array | null | undefined;
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
          const length = Number(res.headers['content-length']);
          if (status === 206 && Number.isSafeInteger(length) && length <= WHOLE_RANGE_MAX) {
            const given = rangeBody(length);
            const body = given.length === length ? given : given.subarray(0, length);
            let at = 0;
            res.on('data', (piece: Buffer) => {
              if (at + piece.length > length) res.destroy(new Error('an answer longer than its length'));
              else at += piece.copy(body, at);
            });
            res.on('error', reject);
            res.on('aborted', () => reject(new Error('the answer was cut off')));
            res.on('end', () =>
              resolve(
                rangeAnswer(at === length ? body : body.subarray(0, at), status, res.statusMessage ?? '', h),
              ),
            );
            return;
          }
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
  return async (input, init = {}) => {
    const u = new URL(input instanceof Request ? input.url : input);
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new TypeError('nodeFetch sends strings and bytes only');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    if (body !== undefined && body !== null) headers['content-length'] = String(Buffer.byteLength(body));
    const method = init.method ?? 'GET';
    if (o.rawRanges !== false && u.protocol === 'http:' && method === 'GET' && headers.range) {
      const a = await rawRangeGet({
        url: u,
        headers,
        bodyOf: rangeBody,
        idleMs,
        signal: init.signal,
        maxBody: WHOLE_RANGE_MAX,
      });
      if (a) return rangeAnswer(a.body, a.status, a.statusText, a.headers);
    }
    return ordinary(u, init, headers);
  };
}
