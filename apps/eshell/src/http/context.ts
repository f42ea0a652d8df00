import type { FastifyRequest } from 'fastify';
import type { TypedServer } from '@hpc/server-kit';
import type { ServiceUser, TokenClaims } from '@hpc/cluster-kit';
import type { EshellDeps } from '../deps';

/** The shell service scope's Fastify instance (TypeBox type provider, so schemas type the handlers). */
export type EshellApp = TypedServer;

export interface EshellContext {
  deps: EshellDeps;
  /** The verified user of a request (the portal's per-cluster token). */
  user(req: FastifyRequest): ServiceUser;
  claims(req: FastifyRequest): TokenClaims;
}
