import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { identityServicesOf, type IdentityServices } from './identity.services';
import { createSessionHttp, type SessionHttp } from './http/session-http';

/** The name features list in `dependencies`: Fastify refuses to start a feature registered before it. */
export const IDENTITY_SERVICES = 'identity-services';

/** What every feature uses of identity: the one set of services and the one session helper of the process. */
export interface IdentityContext {
  services: IdentityServices;
  http: SessionHttp;
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityContext;
  }
}

/**
 * Decorates the root instance once with identity's services and session helper (as fastify/demo's plugins do,
 * `fastify-plugin` so the decoration is not encapsulated). Before, four features each built their own services and
 * session helper from the deps; with revocation that was a correctness risk (one feature's state could keep a
 * session another had ended), and it cost four of everything.
 */
export const identityServices = fp<{ deps: PortalDeps }>(
  async (app, { deps }) => {
    const services = identityServicesOf(deps);
    app.decorate('identity', {
      services,
      http: createSessionHttp({ sessions: services.sessions, config: deps.config }),
    });
  },
  { name: IDENTITY_SERVICES, fastify: '5.x' },
);

/**
 * A feature `(app, deps) => …` as a plugin that depends on `identity-services` (registered without encapsulation:
 * features install root routes and hooks as they did when called directly).
 */
export function identityFeaturePlugin(
  name: string,
  register: (app: AppServer, deps: PortalDeps) => Promise<void>,
) {
  return fp<{ deps: PortalDeps }>(
    (app: FastifyInstance, { deps }) => register(app.withTypeProvider<TypeBoxTypeProvider>(), deps),
    { name, dependencies: [IDENTITY_SERVICES], fastify: '5.x' },
  );
}
