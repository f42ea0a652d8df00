import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { RouteDeclaration, SchemaAt } from '@hpc/contracts';

/** A Fastify instance with the TypeBox type provider: the portal's, an efile scope, any per-cluster service's. */
export type TypedServer = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A declaration's schemas under Fastify's names (`querystring`, `response` by status). */
export type RouteSchema<R extends RouteDeclaration> = {
  tags: R extends { readonly tags: infer T } ? T : undefined;
  params: SchemaAt<R, 'params'>;
  querystring: SchemaAt<R, 'query'>;
  body: SchemaAt<R, 'body'>;
  response: (SchemaAt<R, 'response'> extends TSchema ? { 200: SchemaAt<R, 'response'> } : unknown) &
    (R extends { readonly responses: infer S } ? S : unknown);
};

type Handler<R extends RouteDeclaration, C> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  C,
  RouteSchema<R>,
  TypeBoxTypeProvider
>;

/** What a registration adds to its declaration: the server's own concerns (auth policy, body limit, hooks). */
export type RouteOptions<C = ContextConfigDefault> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    C,
    never,
    TypeBoxTypeProvider
  >,
  'schema'
>;

/**
 * The Fastify schema of a declaration: validation (a refusal is the envelope's "1003"/"1004" through the error
 * handler of `envelope-plugin.ts`), serialization of the 200 answer, and the route's OpenAPI description.
 */
export function routeSchema<R extends RouteDeclaration>(route: R): RouteSchema<R> {
  const schema: Record<string, unknown> = {};
  if (route.tags) schema.tags = route.tags;
  if (route.params) schema.params = route.params;
  if (route.query) schema.querystring = route.query;
  if (route.body) schema.body = route.body;
  if (route.response || route.responses)
    schema.response = { ...(route.response ? { 200: route.response } : {}), ...route.responses };
  return schema as RouteSchema<R>;
}

/**
 * Registers `handler` for a route declared in `@hpc/contracts` (`contracts/src/route.ts`): its method, path and
 * schema come from the declaration, so the handler's request and answer are typed by it (`req.query`,
 * `req.body`, `req.params`; `ok(data)` checked against the declared envelope). The handler answers as any Fastify
 * handler does: return `ok(data)` (the spec's envelope), throw an `AppError` (its code and status), or write to
 * `reply` (bytes). Form bodies are parsed where the scope installed `installFormParser`; `bodyAs` says what the
 * clients send.
 */
export function addRoute<R extends RouteDeclaration, C = ContextConfigDefault>(
  app: TypedServer,
  route: R,
  handler: Handler<R, C>,
): void;
export function addRoute<R extends RouteDeclaration, C = ContextConfigDefault>(
  app: TypedServer,
  route: R,
  options: RouteOptions<C>,
  handler: Handler<R, C>,
): void;
export function addRoute<R extends RouteDeclaration, C>(
  app: TypedServer,
  route: R,
  optionsOrHandler: RouteOptions<C> | Handler<R, C>,
  maybeHandler?: Handler<R, C>,
): void {
  const [options, handler] =
    typeof optionsOrHandler === 'function' ? [{}, optionsOrHandler] : [optionsOrHandler, maybeHandler!];
  app.route({
    ...(options as object),
    method: route.method,
    url: route.path,
    schema: routeSchema(route),
    handler: handler as never,
  });
}
