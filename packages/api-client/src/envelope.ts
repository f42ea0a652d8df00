import type { Static, TSchema } from 'typebox';
import { OK } from '@hpc/contracts';
import { ApiError } from './api-error';

/** The `data` of a contracts envelope schema: `DataOf<typeof ListResponse>` is a listing page. */
export type DataOf<S extends TSchema> = Static<S> extends { data: infer D } ? D : never;

/** A `{ code, msg, data }` answer as both servers send it (DESIGN.md §6). */
export interface EnvelopeLike {
  code: string;
  msg?: unknown;
  data?: unknown;
}

export const isEnvelope = (v: unknown): v is EnvelopeLike =>
  typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'string';

/** Parses a body that should be an envelope; null when it is not JSON or not an envelope (a proxy's error page). */
export function parseEnvelope(body: string): EnvelopeLike | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return isEnvelope(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The code of an answer that is read by hand (XHR uploads, raw fetches): the envelope's `code` when the body is one,
 * else the HTTP status as a string ("0" when there was no answer at all).
 */
export function codeOfAnswer(status: number, body: string): string {
  return parseEnvelope(body)?.code ?? String(status);
}

/**
 * The outcome of an envelope answer read by hand: its `data` when `code` is "0", else an {@link ApiError} with the
 * same fields {@link ApiClient} would throw (kind "api" for an envelope, "http" for anything else).
 */
export function readEnvelope<T>(
  status: number,
  body: string,
  lang: string | null = null,
): { ok: true; data: T } | { ok: false; error: ApiError } {
  const payload = parseEnvelope(body);
  if (payload === null) {
    return {
      ok: false,
      error: new ApiError({
        code: String(status),
        msg: body === '' ? `HTTP ${status}` : 'The answer is not an envelope',
        status,
        kind: 'http',
      }),
    };
  }
  if (payload.code === OK && status >= 200 && status < 300) return { ok: true, data: payload.data as T };
  return { ok: false, error: envelopeError(payload, status, lang) };
}

/** The error of an envelope whose code is not "0". */
export function envelopeError(payload: EnvelopeLike, status: number, lang: string | null = null): ApiError {
  return new ApiError({
    code: payload.code,
    msg: typeof payload.msg === 'string' ? payload.msg : '',
    status,
    kind: 'api',
    data: payload.data,
    lang,
  });
}
