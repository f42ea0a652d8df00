import type { Static, TSchema } from 'typebox';

/**
 * Routes declared once (issue 23 §3). A route of the portal, of efile or of any per-cluster service is one
 * `defineRoute({ method, path, params?, query?, body?, bodyAs?, response, tags? })`, kept in a table per service
 * (`<service>.routes.ts`: `SiteRoutes`, `ShareRoutes`, …). Both sides are derived from that one declaration:
 *
 * - the server registers a handler against it with `addRoute(app, ShareRoutes.open, handler)` (`@hpc/server-kit`):
 *   method, path and the Fastify schema (validation, serialization, the OpenAPI at `/docs`) come from the
 *   declaration, and the handler's `req.query`/`req.body`/`req.params` and its answer are typed by it;
 * - the client calls it with `client.request(ShareRoutes.open, { query })` or binds it with
 *   `client.route(ShareRoutes.open)` (`@hpc/api-client`): the path is filled in, the body sent as the declaration
 *   says, and the answer typed as the envelope's `data` (`RouteData<R>`).
 *
 * So a path, a method or a type is written once; changing one breaks whichever side no longer agrees at compile
 * time. What belongs to one side only stays there: the server's auth policy (`config`), body limits and hooks in
 * `addRoute`'s options, the client's deadline per call in its options.
 *
 * The browser bundle: the web uses the tables' method, path and `bodyAs` only. `apps/web/vite.config.ts` drops the
 * schema properties of `defineRoute({...})` in these modules (`scripts/strip-route-schemas.ts`), so TypeBox stays out
 * of the first load; so write each route as one `defineRoute({...})` object literal in a `*.routes.ts` module:
 *
 *   // packages/contracts/src/jobs.routes.ts
 *   export const JobRoutes = {
 *     list: defineRoute({ method: 'GET', path: '/jobs', query: JobListQuery, response: JobListResponse }),
 *     cancel: defineRoute({ method: 'POST', path: '/jobs/:id/cancel', params: JobParams, response: OkResponse }),
 *   };
 *   // the service:   addRoute(app, JobRoutes.list, async (req) => ok(await jobs.list(user(req), req.query)));
 *   // a client:      const page = await client.request(JobRoutes.list, { query: { pageNum: 1 } });
 *   //                await client.request(JobRoutes.cancel, { params: { id } });
 *   // a test:        expect(await client.call(JobRoutes.cancel, { params: { id } })).toMatchObject({ code: '…' });
 */

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a request body travels: `form` (`application/x-www-form-urlencoded`, array fields repeated: the spec's
 * default for efile's POST calls), `json`, or `bytes` (the raw body of a range or a tar, no schema).
 */
export type BodyEncoding = 'json' | 'form' | 'bytes';

export interface RouteDeclaration {
  readonly method: RouteMethod;
  /** Fastify's form: `:name` for a path parameter (declared in `params`), `*` for the rest of the path. */
  readonly path: string;
  readonly params?: TSchema;
  readonly query?: TSchema;
  readonly body?: TSchema;
  /** `json` when not given. */
  readonly bodyAs?: BodyEncoding;
  /**
   * The 200 answer: the `{ code, msg, data }` envelope of `envelope.ts` for calls, or the schema of what a download
   * or a health check sends. None for an answer the server streams unvalidated (bytes).
   */
  readonly response?: TSchema;
  /** Answers of other statuses, for the OpenAPI description (a redirect's 302). */
  readonly responses?: Readonly<Record<number, TSchema>>;
  /** OpenAPI tags. */
  readonly tags?: readonly string[];
}

/** Declares a route; the `const` type parameter keeps method and path as literal types. */
export const defineRoute = <const R extends RouteDeclaration>(route: R): R => route;

/** The schema a declaration gives for one part, or `undefined`. */
export type SchemaAt<R, K extends 'params' | 'query' | 'body' | 'response'> = R extends {
  readonly [P in K]: infer S extends TSchema;
}
  ? S
  : undefined;

/** What a declared part is on the wire: its static type, or `undefined` when the route declares none. */
type StaticAt<R, K extends 'params' | 'query' | 'body' | 'response'> =
  SchemaAt<R, K> extends TSchema ? Static<SchemaAt<R, K>> : undefined;

export type RouteParams<R extends RouteDeclaration> = StaticAt<R, 'params'>;
export type RouteQuery<R extends RouteDeclaration> = StaticAt<R, 'query'>;
export type RouteBody<R extends RouteDeclaration> = StaticAt<R, 'body'>;
/** The whole 200 answer (the envelope, for a call). */
export type RouteAnswer<R extends RouteDeclaration> = StaticAt<R, 'response'>;
/** The envelope's `data` of a call's answer. */
export type RouteData<R extends RouteDeclaration> = RouteAnswer<R> extends { data: infer D } ? D : never;
