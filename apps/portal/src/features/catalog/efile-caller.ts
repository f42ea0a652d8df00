import { Readable } from 'node:stream';
import { ApiClient, ApiError, type RequestOptions } from '@hpc/api-client';
import type { AppServer } from '@hpc/server-kit';
import { AppError } from '@hpc/server-kit';
import { CommonCodes, isErrorCode } from '@hpc/contracts';
import { portalEfileFetch } from '../../efile-client';

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

/**
 * The portal's calls to a cluster's efile for the model copy, through `@hpc/api-client`'s client over the portal's
 * efile transport (`efile-client.ts`: absolute URLs over HTTP with the tar body streamed, the all-in-one's relative
 * ones by `app.inject`), so the copy and fast transfer's permission check share one client instead of each having
 * its own. Answers as efile gave them: an envelope with its code, whatever the status (the copy reads the refusal);
 * an answer that is not one is "1002", no answer at all "1001".
 */
export function createEfileCaller(app: AppServer): EfileCaller {
  const fetch = portalEfileFetch(app);
  return async <T>(base: string, req: EfileRequest): Promise<EfileAnswer<T>> => {
    const client = new ApiClient({
      baseUrl: base.replace(/\/$/, ''),
      fetch,
      // No deadline unless the call has one: the streamed PUT of a model may be hundreds of GB.
      timeoutMs: req.timeoutMs ?? 0,
      headers: (): Record<string, string> => (req.token ? { token: req.token } : {}),
    });
    const opts: RequestOptions = {
      method: req.method,
      form: req.form,
      signal: req.signal,
      ...(req.stream
        ? {
            body: Readable.toWeb(req.stream) as ReadableStream,
            headers: { 'content-type': 'application/octet-stream' },
          }
        : {}),
    };
    if (req.plainJson) {
      // The health check answers `{ check_result }`, not the envelope.
      const res = await client.send(req.path, opts).catch((e: unknown) => {
        throw unreachable(e);
      });
      return (await res.json()) as EfileAnswer<T>;
    }
    const r = await client.call<T>(req.path, opts);
    if (r.ok) return { code: r.code, msg: r.msg, data: r.data };
    if (r.error.kind === 'api') return { code: r.code, msg: r.msg, data: r.data as T };
    throw unreachable(r.error);
  };
}

/** A call that got no envelope: the cancelled one as it is, a non-envelope "1002", no answer "1001". */
function unreachable(e: unknown): unknown {
  if (!(e instanceof ApiError) || e.kind === 'cancelled') return e;
  if (e.kind === 'http')
    return new AppError(CommonCodes.remoteCall, `The file service answered HTTP ${e.status}`);
  return new AppError(CommonCodes.unavailable, `The file service cannot be reached: ${e.msg}`);
}

/** Throws the efile answer's code as our own error, keeping its message. */
export function expectOk<T>(answer: EfileAnswer<T>): T {
  if (answer.code !== '0')
    throw new AppError(isErrorCode(answer.code) ? answer.code : CommonCodes.remoteCall, answer.msg);
  return answer.data;
}
