import type { RouteBody, RouteDeclaration, RouteParams, RouteQuery } from '@hpc/contracts';
import type { FormBody, QueryParams, RequestOptions } from './client';

/** The raw body of a `bodyAs: 'bytes'` route as the caller's `fetch` takes it (a Buffer in Node). */
export type Bytes = NonNullable<RequestInit['body']>;

/** A part of the input: required when its type has a required field, optional when all are, absent when none. */
type Part<Name extends string, T> = [T] extends [undefined]
  ? object
  : object extends T
    ? { [K in Name]?: T }
    : { [K in Name]: T };

/** What a declared route's call takes: `{ params, query, body }` as the declaration has them. */
export type RouteInput<R extends RouteDeclaration> = Part<'params', RouteParams<R>> &
  Part<'query', RouteQuery<R>> &
  (R extends { bodyAs: 'bytes' } ? { body: Bytes } : Part<'body', RouteBody<R>>);

/** Per-call options of a declared route: the deadline, cancellation, extra headers (a `Range`, a content type). */
export type CallOptions = Pick<RequestOptions, 'signal' | 'timeoutMs' | 'headers'>;

/** The arguments after the route: the input, left out when nothing in it is required, and the options. */
export type RouteArgs<R extends RouteDeclaration> =
  object extends RouteInput<R>
    ? [input?: RouteInput<R>, opts?: CallOptions]
    : [input: RouteInput<R>, opts?: CallOptions];

/** The path of a call: each `:name` (and a trailing `*`) replaced by its parameter, URI-encoded. */
export function routePath(path: string, params?: unknown): string {
  // Path parameters are scalars (their schemas say so); a wildcard's rest is a string.
  const values = (params ?? {}) as Record<string, string | number | boolean | null | undefined>;
  const filled = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`${path}: the parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  if (!filled.endsWith('*')) return filled;
  const rest = values['*'];
  if (rest === undefined || rest === null) throw new Error(`${path}: the rest of the path is missing`);
  return filled.slice(0, -1) + String(rest).split('/').map(encodeURIComponent).join('/');
}

/** The path and request options of a declared route's call: the body sent as the declaration's `bodyAs` says. */
export function routeRequest<R extends RouteDeclaration>(
  route: R,
  input: { params?: unknown; query?: unknown; body?: unknown } = {},
  opts: CallOptions = {},
): { path: string; options: RequestOptions } {
  const options: RequestOptions = { ...opts, method: route.method, query: input.query as QueryParams };
  if (input.body !== undefined) {
    if (route.bodyAs === 'form') options.form = input.body as FormBody;
    else if (route.bodyAs === 'bytes') options.body = input.body as Bytes;
    else options.json = input.body;
  }
  return { path: routePath(route.path, input.params), options };
}
