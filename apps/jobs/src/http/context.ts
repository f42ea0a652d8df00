import type { FastifyRequest } from 'fastify';
import type { TypedServer } from '@hpc/server-kit';
import type { ServiceUser } from '@hpc/cluster-kit';
import type { JobsDeps } from '../deps';

/** The job service scope's Fastify instance (TypeBox type provider, so schemas type the handlers). */
export type JobsApp = TypedServer;

export interface JobsContext {
  deps: JobsDeps;
  /** The verified user of a request (the portal's per-cluster token). */
  user(req: FastifyRequest): ServiceUser;
}
