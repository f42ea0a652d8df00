import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { EfileDeps } from '../deps';
import type { Auth } from './auth';

/** The efile scope's Fastify instance (TypeBox type provider, so schemas type the handlers). */
export type EfileApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface EfileContext {
  deps: EfileDeps;
  auth: Auth;
}
