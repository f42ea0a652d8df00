import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceUser } from '@hpc/cluster-kit';
import type { JobsDeps } from '../deps';

/** The job service scope's Fastify instance (TypeBox type provider, so schemas type the handlers). */
export type JobsApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface JobsContext {
  deps: JobsDeps;
  /** The verified user of a request (the portal's per-cluster token). */
  user(req: FastifyRequest): ServiceUser;
}
