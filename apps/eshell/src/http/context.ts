import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceUser, TokenClaims } from '@hpc/cluster-kit';
import type { EshellDeps } from '../deps';

/** The shell service scope's Fastify instance (TypeBox type provider, so schemas type the handlers). */
export type EshellApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface EshellContext {
  deps: EshellDeps;
  /** The verified user of a request (the portal's per-cluster token). */
  user(req: FastifyRequest): ServiceUser;
  claims(req: FastifyRequest): TokenClaims;
}
