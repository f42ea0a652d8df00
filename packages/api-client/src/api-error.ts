/**
 * What went wrong with a call, in the terms the web maps to messages (spec §8 "Handling"):
 * - `api`: the server answered an envelope whose code is not "0";
 * - `http`: the server answered a non-2xx status without an envelope (a proxy's 502 page, a missing route);
 * - `timeout`: our own deadline fired; `cancelled`: the caller aborted (silent in the UI);
 * - `network`: no answer at all (connection refused, DNS, CORS, offline).
 */
export type ApiErrorKind = 'api' | 'http' | 'timeout' | 'network' | 'cancelled';

export interface ApiErrorInit {
  code: string;
  msg: string;
  status: number;
  kind: ApiErrorKind;
  data?: unknown;
  /** The answer's `Content-Language`: the language the server wrote `msg` in, when it said. */
  lang?: string | null;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: string;
  readonly msg: string;
  /** HTTP status; 0 when there was no answer (timeout, network, cancelled). */
  readonly status: number;
  readonly kind: ApiErrorKind;
  /** The envelope's `data` of a failure (e.g. validation details), when any. */
  readonly data: unknown;
  /** The language of `msg` as the server declared it (`Content-Language`), null when it did not. */
  readonly lang: string | null;

  constructor(init: ApiErrorInit) {
    super(init.msg, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.code = init.code;
    this.msg = init.msg;
    this.status = init.status;
    this.kind = init.kind;
    this.data = init.data ?? null;
    this.lang = init.lang ?? null;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/**
 * Whether asking again, or asking another instance, may well succeed: nothing reached the service (`network`), our
 * deadline fired (`timeout`), something in front of it answered a 5xx without the service's envelope (a proxy's 502
 * page, an instance that is restarting), or the service itself said "try again later" (502/503/504 with an envelope:
 * `1001` when its store or the user's worker is gone). What was asked may still be running there. Any other envelope
 * is the service's own answer (a 500 among them: asking again gets the same), and `cancelled` was our own doing.
 */
export const isTransient = (e: unknown): e is ApiError =>
  isApiError(e) &&
  (e.kind === 'network' ||
    e.kind === 'timeout' ||
    [502, 503, 504].includes(e.status) ||
    (e.kind === 'http' && e.status >= 500));
