import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import type { Writable } from 'node:stream';

/**
 * A service's worker calls, declared once (issue 23 §1). A table names each call of an implementation interface
 * (efile's `UserFs`, the job service's own) with its kind, the shape of its wire; the argument and answer types are
 * the interface's. From the table the kit derives the front end's typed proxy (`callClient`) and the worker's
 * dispatcher (`callServer`): adding a call is one line in the table and its implementation, and a name the table
 * does not hold is never dispatched.
 *
 *   const calls = { submit: call.plain(), tail: call.lines() } satisfies CallTable<JobWorker>;
 *
 * Every call's first argument is its scope: who it runs as (`cun`, the worker is that user's; the worker refuses any
 * other) and what the worker needs to confine it (roots). The other arguments and the answer travel as JSON (JSON
 * has no `undefined`: an omitted optional argument arrives as `undefined` again, an `undefined` answer as `null`).
 */
export interface CallScope {
  cun: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest function type, narrowed per kind below
export type AnyCall = (scope: any, ...args: any[]) => unknown;

/**
 * JSON arguments in, a JSON answer out. `repeatable`: sent once more to a new worker when its worker died first.
 * `skipWithoutUser`: a scope naming no user (`cun` empty) answers `undefined` without reaching any worker, for a
 * clean-up of something recorded before its owner was (efile's partials of older uploads stay for the admin).
 */
export interface PlainCall {
  kind: 'plain';
  repeatable: boolean;
  skipWithoutUser: boolean;
}
/** One argument (at `body`, counted after the scope) is a byte stream sent as the request body; a JSON answer. */
export interface UploadCall<N extends number = number> {
  kind: 'upload';
  body: N;
}
/** JSON arguments in, bytes out: the answer is a Buffer (bounded by the call itself: a preview, a small file). */
export interface DownloadCall {
  kind: 'download';
}
/** JSON arguments in, a stream of JSON items out (an AsyncIterable, read as the caller takes the items). */
export interface LinesCall {
  kind: 'lines';
}
/** The last two arguments are a progress callback and an AbortSignal: progress lines, then the end or the error. */
export interface ProgressCall {
  kind: 'progress';
}

/** What a custom call's front-end side may do: requests to its own routes (`/call/<name>/<sub>`). */
export interface CustomClientContext {
  /** The user a scope runs as (the worker chosen). */
  userOf(scope: CallScope): string;
  /** The scope as it is sent to the worker. */
  wireScope(scope: CallScope): unknown;
  request(scope: CallScope, sub: string, opts?: RequestOptions): Promise<WorkerResponse>;
  /** A request whose answer is `{ result }`: the result. */
  json<T>(scope: CallScope, sub: string, opts?: RequestOptions): Promise<T>;
  /**
   * Hands a client connection to the scope's worker (see worker/handoff.ts), where this call's `serve` writes the
   * answer of `job`; `handed: false` when it cannot be (the caller then relays the answer itself).
   */
  handOff(scope: CallScope, out: Writable, job: unknown): Promise<HandOffResult>;
}

/** What a custom call's worker side gets: the worker's user, and the helpers every route uses. */
export interface CustomServerContext {
  user: string;
  /** The scope of a request, refused unless it is this worker's user. */
  scopeOf<S extends CallScope>(scope: S | undefined): S;
  json(res: ServerResponse, status: number, body: unknown): void;
}

export type CustomRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/**
 * Writes the body of one answer on a client connection handed over to the worker, the front end's head already
 * written, and ends the connection (the kit then waits for the last byte). A failure cuts the connection.
 */
export type CustomServe = (job: unknown, socket: net.Socket) => Promise<void>;

/** A custom call's worker side: its routes, and what it writes on a handed-over connection, if it takes any. */
export interface CustomServer {
  routes: Record<string, CustomRoute>;
  serve?: CustomServe;
}

/**
 * A call whose wire is its own (a handle kept in the worker between requests, a batch, a hand-off): both sides in
 * one declaration, its routes under `/call/<name>/`. `server` runs once per worker: state its routes and `serve`
 * share (handles) lives in its closure, never in the front end.
 */
export interface CustomCall<F extends AnyCall = AnyCall, Impl = never> {
  kind: 'custom';
  client(ctx: CustomClientContext): F;
  server(impl: Impl, ctx: CustomServerContext): CustomServer;
}

export type CallSpec =
  PlainCall | UploadCall | DownloadCall | LinesCall | ProgressCall | CustomCall<AnyCall, never>;

export interface RequestOptions {
  /** A JSON body. */
  json?: unknown;
  /** A byte body (then `args` go in the `x-args` header). */
  stream?: AsyncIterable<Buffer>;
  args?: unknown;
}

/** A worker's answer with status 200; `done` must be called once it is consumed. */
export interface WorkerResponse {
  res: IncomingMessage;
  done: () => void;
}

export interface HandOffResult {
  handed: boolean;
  error?: Error;
}

/**
 * How the derived proxy reaches workers: the front end's `UserWorkers` (or a service's wrapper of it, which may
 * refuse hand-offs by its own settings).
 */
export interface CallTransport {
  request(user: string, route: string, opts: RequestOptions): Promise<WorkerResponse>;
  /** Forgets the worker of `user` (its socket failed): the next request starts a new one. */
  forget(user: string): void;
  handOff?(user: string, out: Writable, job: unknown): Promise<HandOffResult>;
}

/* ---- which kinds fit which function type (what `satisfies CallTable<Impl>` checks) ---- */

type ArgsOf<F> = F extends (scope: never, ...args: infer A) => unknown ? A : never;
type ReturnOf<F> = F extends (...args: never[]) => infer R ? R : never;
type NotJson = AsyncIterable<unknown> | AbortSignal | ((...a: never[]) => unknown);
/** True when no argument is a stream, a callback or a signal. */
type JsonArgs<A extends unknown[]> = { [K in keyof A]-?: A[K] extends NotJson ? 1 : 0 }[number] extends 0
  ? true
  : false;
/** The positions of the byte-stream arguments. */
type BodyAt<A extends unknown[]> = {
  [K in keyof A]-?: A[K] extends AsyncIterable<Buffer>
    ? K extends `${infer N extends number}`
      ? N
      : never
    : never;
}[number];

export type CallSpecOf<F, Impl = never> =
  | CustomCall<F extends AnyCall ? F : never, Impl>
  | (F extends AnyCall
      ? ReturnOf<F> extends Promise<Buffer>
        ? DownloadCall
        : ReturnOf<F> extends AsyncIterable<unknown>
          ? LinesCall
          : ReturnOf<F> extends Promise<unknown>
            ? | (JsonArgs<ArgsOf<F>> extends true ? PlainCall : never)
              | UploadCall<BodyAt<ArgsOf<F>>>
              | (ArgsOf<F> extends [...unknown[], (p: never) => void, AbortSignal] ? ProgressCall : never)
            : never
      : never);

/** A table of calls of `Impl`: only its method names, each with a kind its signature fits. */
export type CallTable<Impl> = { readonly [K in keyof Impl]?: CallSpecOf<Impl[K], Impl> };

/** The front end's proxy derived from a table: exactly the declared methods, with the interface's types. */
export type CallClient<Impl, T> = { [K in keyof T & keyof Impl]: Impl[K] };

/** The kinds, as table entries. */
export const call = {
  plain: (opts: { repeatable?: boolean; skipWithoutUser?: boolean } = {}): PlainCall => ({
    kind: 'plain',
    repeatable: opts.repeatable === true,
    skipWithoutUser: opts.skipWithoutUser === true,
  }),
  upload: <N extends number>(body: N): UploadCall<N> => ({ kind: 'upload', body }),
  download: (): DownloadCall => ({ kind: 'download' }),
  lines: (): LinesCall => ({ kind: 'lines' }),
  progress: (): ProgressCall => ({ kind: 'progress' }),
  custom: <F extends AnyCall, Impl>(def: Omit<CustomCall<F, Impl>, 'kind'>): CustomCall<F, Impl> => ({
    kind: 'custom',
    ...def,
  }),
};

/** The route of a call (custom calls add `/<sub>`). Names are the table's own keys, never anything else. */
export const callRoute = (name: string, sub?: string) =>
  `/call/${encodeURIComponent(name)}${sub ? `/${encodeURIComponent(sub)}` : ''}`;
