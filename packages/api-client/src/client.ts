import { Limits, OK, type RouteData, type RouteDeclaration } from '@hpc/contracts';
import { ApiError } from './api-error';
import { envelopeError, isEnvelope, type EnvelopeLike } from './envelope';
import { routeRequest, type CallOptions, type RouteArgs } from './route-request';

type Scalar = string | number | boolean;
/** Query values: arrays are sent as repeated parameters (`labels=a&labels=b`, spec §7); null/undefined are left out. */
export type QueryParams = Record<string, Scalar | readonly Scalar[] | null | undefined>;
export type FormBody = Record<string, Scalar | readonly Scalar[] | null | undefined>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A call's outcome read without throwing ({@link ApiClient.call}): tests and benches that assert on a refusal's
 * status and code (`{ status: 503, code: '1001' }`) read them here instead of catching. A failure carries the
 * {@link ApiError} the throwing calls would have thrown, and its fields: the envelope's code, or the bare status
 * ("503", "0" for no answer at all) or TIMEOUT/NETWORK/CANCELLED, as {@link ApiError} defines them.
 */
export type CallResult<T> =
  | { ok: true; status: number; code: typeof OK; msg: string; data: T }
  | { ok: false; status: number; code: string; msg: string; data: unknown; error: ApiError };

/** The {@link CallResult} of a failure. */
export const failedResult = (error: ApiError): CallResult<never> => ({
  ok: false,
  status: error.status,
  code: error.code,
  msg: error.msg,
  data: error.data,
  error,
});

export interface ApiClientOptions {
  /** Prefix of every path: '' for the page's own origin, or an absolute URL such as an efile instance. */
  baseUrl?: string;
  /** Default deadline per call in ms (spec §9: 30 s); a call may pass its own. 0 disables it. */
  timeoutMs?: number;
  /** Extra headers for every call (tokens, CSRF); may be async. Called per request, so values can rotate. */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Called with the error of every 401 answer before it is thrown, e.g. to send the user to the login page. */
  onUnauthorized?: (error: ApiError) => void;
  /** `fetch` to use (tests, Node without a global fetch); defaults to the global one. */
  fetch?: typeof fetch;
  /** Cookie policy; the portal's session cookie needs 'same-origin' (default) or 'include' across origins. */
  credentials?: RequestInit['credentials'];
}

export interface RequestOptions {
  method?: HttpMethod;
  query?: QueryParams;
  /** JSON body (`application/json`). */
  json?: unknown;
  /** Form body (`application/x-www-form-urlencoded`), the spec's default for POST and DELETE. */
  form?: FormBody;
  /** Any other body (FormData for multipart, Blob), sent as it is. */
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Builds a query string; arrays become repeated keys. Exported for links that carry the same parameters. */
export function toSearchParams(params: QueryParams | FormBody | undefined): URLSearchParams {
  const sp = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) continue;
    const values: readonly Scalar[] = Array.isArray(value) ? value : [value as Scalar];
    for (const v of values) sp.append(key, String(v));
  }
  return sp;
}

export class ApiClient {
  private readonly opts: ApiClientOptions;

  constructor(opts: ApiClientOptions = {}) {
    this.opts = opts;
  }

  get<T>(path: string, query?: QueryParams, opts: Omit<RequestOptions, 'method' | 'query'> = {}): Promise<T> {
    return this.request<T>(path, { ...opts, method: 'GET', query });
  }

  post<T>(path: string, opts: Omit<RequestOptions, 'method'> = {}): Promise<T> {
    return this.request<T>(path, { ...opts, method: 'POST' });
  }

  /**
   * A declared route's call (`contracts/src/route.ts`), bound: `client.route(SiteRoutes.config)` is a function of
   * the route's input that resolves to its envelope's `data`, typed by the declaration. `defaults` are the options
   * of every call (a longer deadline); a call's own options win.
   */
  route<R extends RouteDeclaration>(
    route: R,
    defaults: CallOptions = {},
  ): (...args: RouteArgs<R>) => Promise<RouteData<R>> {
    return (...args) => this.request(route, ...([args[0], { ...defaults, ...args[1] }] as RouteArgs<R>));
  }

  /**
   * Resolves to the envelope's `data` when `code` is "0"; otherwise rejects with an {@link ApiError}. Takes a
   * declared route and its input (typed), or a path and its options (a call no table declares: raw checks).
   */
  request<R extends RouteDeclaration>(route: R, ...args: RouteArgs<R>): Promise<RouteData<R>>;
  request<T>(path: string, opts?: RequestOptions): Promise<T>;
  async request(target: string | RouteDeclaration, ...rest: unknown[]): Promise<unknown> {
    const [path, opts] = resolve(target, rest);
    const res = await this.send(path, opts);
    const payload = await this.parse(res);
    if (payload.code !== OK) throw this.notify(fromEnvelope(payload, res));
    return payload.data;
  }

  /**
   * The same call as {@link request}, settled instead of thrown: success and failure both resolve with the status,
   * code, msg and data of the answer. Only a bug of the caller (not an {@link ApiError}) still rejects.
   */
  call<R extends RouteDeclaration>(route: R, ...args: RouteArgs<R>): Promise<CallResult<RouteData<R>>>;
  call<T>(path: string, opts?: RequestOptions): Promise<CallResult<T>>;
  async call(target: string | RouteDeclaration, ...rest: unknown[]): Promise<CallResult<unknown>> {
    const [path, opts] = resolve(target, rest);
    try {
      const res = await this.send(path, opts);
      const payload = await this.parse(res);
      if (payload.code !== OK) return failedResult(this.notify(fromEnvelope(payload, res)));
      const msg = typeof payload.msg === 'string' ? payload.msg : '';
      return { ok: true, status: res.status, code: OK, msg, data: payload.data };
    } catch (e) {
      if (e instanceof ApiError) return failedResult(e);
      throw e;
    }
  }

  /**
   * The URL a call would use: for links (downloads, images) that the browser fetches itself. Takes a declared
   * route and its `params` and `query`, or a path and a query.
   */
  url<R extends RouteDeclaration>(route: R, ...args: RouteArgs<R>): string;
  url(path: string, query?: QueryParams): string;
  url(target: string | RouteDeclaration, ...rest: unknown[]): string {
    const [path, opts] =
      typeof target === 'string' ? [target, { query: rest[0] as QueryParams }] : resolve(target, rest);
    const qs = toSearchParams(opts.query).toString();
    return `${this.opts.baseUrl ?? ''}${path}${qs ? `?${qs}` : ''}`;
  }

  /**
   * Sends the call and returns the raw Response when its status is 2xx (for downloads and other non-JSON answers);
   * failures are thrown as {@link ApiError} exactly like {@link request}. Takes a declared route or a path.
   */
  send<R extends RouteDeclaration>(route: R, ...args: RouteArgs<R>): Promise<Response>;
  send(path: string, opts?: RequestOptions): Promise<Response>;
  async send(target: string | RouteDeclaration, ...rest: unknown[]): Promise<Response> {
    const [path, opts] = resolve(target, rest);
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs ?? Limits.timeouts.default;
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const onAbort = () => controller.abort();
    if (opts.signal?.aborted) controller.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    try {
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...(await this.opts.headers?.()),
        ...opts.headers,
      };
      let body: RequestInit['body'] = opts.body;
      if (opts.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.json);
      } else if (opts.form !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
        body = toSearchParams(opts.form).toString();
      }
      const doFetch = this.opts.fetch ?? globalThis.fetch;
      const res = await doFetch(this.url(path, opts.query), {
        method: opts.method ?? 'GET',
        headers,
        body,
        signal: controller.signal,
        credentials: this.opts.credentials ?? 'same-origin',
      });
      if (!res.ok) throw await this.failure(res);
      return res;
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (timedOut) {
        throw new ApiError({
          code: 'TIMEOUT',
          msg: `Timeout of ${timeoutMs} ms exceeded`,
          status: 0,
          kind: 'timeout',
          cause: e,
        });
      }
      if (controller.signal.aborted) {
        throw new ApiError({
          code: 'CANCELLED',
          msg: 'The request was cancelled',
          status: 0,
          kind: 'cancelled',
          cause: e,
        });
      }
      throw new ApiError({
        code: 'NETWORK',
        msg: e instanceof Error ? e.message : 'Network Error',
        status: 0,
        kind: 'network',
        cause: e,
      });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The envelope of a 2xx answer, whatever its code; an answer that is not one is an {@link ApiError}. */
  private async parse(res: Response): Promise<EnvelopeLike> {
    let payload: unknown;
    try {
      payload = await res.json();
    } catch (e) {
      throw new ApiError({
        code: String(res.status),
        msg: 'The answer is not JSON',
        status: res.status,
        kind: 'http',
        cause: e,
      });
    }
    if (!isEnvelope(payload)) {
      throw new ApiError({
        code: String(res.status),
        msg: 'The answer is not an envelope',
        status: res.status,
        kind: 'http',
      });
    }
    return payload;
  }

  /** Turns a non-2xx answer into an error: the envelope's code when there is one, else the bare status. */
  private async failure(res: Response): Promise<ApiError> {
    let payload: unknown = null;
    try {
      payload = JSON.parse(await res.text());
    } catch {
      // An HTML error page of a proxy, or an empty body: the status is all we know.
    }
    const error = isEnvelope(payload)
      ? fromEnvelope(payload, res)
      : new ApiError({
          code: String(res.status),
          msg: res.statusText || `HTTP ${res.status}`,
          status: res.status,
          kind: 'http',
        });
    return this.notify(error);
  }

  private notify(error: ApiError): ApiError {
    if (error.status === 401) this.opts.onUnauthorized?.(error);
    return error;
  }
}

/** The path and options of a call given as a path and options, or as a declared route, its input and options. */
function resolve(target: string | RouteDeclaration, rest: unknown[]): [string, RequestOptions] {
  if (typeof target === 'string') return [target, (rest[0] as RequestOptions | undefined) ?? {}];
  const { path, options } = routeRequest(target, rest[0] as object | undefined, rest[1] as CallOptions);
  return [path, options];
}

function fromEnvelope(payload: { code: string; msg?: unknown; data?: unknown }, res: Response): ApiError {
  return envelopeError(payload, res.status, res.headers?.get('content-language') ?? null);
}
