import type { TypedServer } from '@hpc/server-kit';
import type { EfileDeps } from '../deps';
import type { Auth } from './auth';

/** The efile scope's Fastify instance (TypeBox type provider, so schemas type the handlers). */
export type EfileApp = TypedServer;

export interface EfileContext {
  deps: EfileDeps;
  auth: Auth;
}
