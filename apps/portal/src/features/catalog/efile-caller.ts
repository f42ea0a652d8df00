import { Readable } from 'node:stream';
import type { AppServer } from '@hpc/server-kit';
import { AppError } from '@hpc/server-kit';
import { CommonCodes, isErrorCode } from '@hpc/contracts';

/** What efile answers: the envelope of spec §7. */
export interface EfileAnswer<T = unknown> {
  code: string;
  msg: string;
  data: T;
}

export interface EfileRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Path and query below the efile base, e.g. `/exist.action`. */
  path: string;
  token?: string;
  /** A form body (POST). */
  form?: Record<string, string | string[]>;
  /** A streamed body (PUT). */
  stream?: Readable;
  /** Small calls give up after this long; the streamed PUT has none (a model may be hundreds of GB). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The health check answers `{ check_result }`, not the envelope: hand its JSON back as it is. */
  plainJson?: boolean;
}

/** Calls one efile instance. */
export type EfileCaller = <T>(base: string, req: EfileRequest) => Promise<EfileAnswer<T>>;

const formBody = (form: Record<string, string | string[]>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  return p.toString();
};

function answerOf<T>(status: number, text: string, plain = false): EfileAnswer<T> {
  try {
    const json = JSON.parse(text) as EfileAnswer<T>;
    if (plain || typeof json.code === 'string') return json;
  } catch {
    // not an envelope: below
  }
  throw new AppError(CommonCodes.remoteCall, `The file service answered HTTP ${status}`);
}

/**
 * The portal's client of a cluster's efile, through efile's public API only. A service URL is absolute in
 * production (`https://efile.cluster/efile`): fetched over HTTP, the tar body streamed (`duplex: 'half'`). The
 * all-in-one start registers relative URLs (`/efile/11250`) for the efile instances it mounts on the same server:
 * those are answered by `app.inject`, in process, so the portal need not know the address it listens on.
 */
export function createEfileCaller(app: AppServer): EfileCaller {
  return async <T>(base: string, req: EfileRequest): Promise<EfileAnswer<T>> => {
    const url = base.replace(/\/$/, '') + req.path;
    const headers: Record<string, string> = {};
    if (req.token) headers.token = req.token;
    let body: string | Readable | undefined;
    if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = formBody(req.form);
    } else if (req.stream) {
      headers['content-type'] = 'application/octet-stream';
      body = req.stream;
    }
    if (url.startsWith('/')) {
      const res = await app.inject({ method: req.method, url, headers, payload: body, signal: req.signal });
      return answerOf<T>(res.statusCode, res.body, req.plainJson);
    }
    if (!/^https?:\/\//.test(url))
      throw new AppError(CommonCodes.remoteCall, 'The file service URL is not http(s)');
    const signals = [req.signal, req.timeoutMs ? AbortSignal.timeout(req.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let res: Response;
    try {
      res = await fetch(url, {
        method: req.method,
        headers,
        body: typeof body === 'string' ? body : body ? (Readable.toWeb(body) as ReadableStream) : undefined,
        signal: signals.length ? AbortSignal.any(signals) : undefined,
        // Node's fetch needs this for a streamed body.
        duplex: 'half',
        redirect: 'error',
      });
    } catch (e) {
      if (req.signal?.aborted) throw e;
      throw new AppError(
        CommonCodes.unavailable,
        `The file service cannot be reached: ${(e as Error).message}`,
      );
    }
    return answerOf<T>(res.status, await res.text(), req.plainJson);
  };
}

/** Throws the efile answer's code as our own error, keeping its message. */
export function expectOk<T>(answer: EfileAnswer<T>): T {
  if (answer.code !== '0')
    throw new AppError(isErrorCode(answer.code) ? answer.code : CommonCodes.remoteCall, answer.msg);
  return answer.data;
}
