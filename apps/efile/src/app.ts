import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { FileRoutes } from '@hpc/contracts';
import { addRoute, createServer, type AppServer } from '@hpc/server-kit';
import { demoHomesHook, parseShells } from '@hpc/cluster-kit';
import type { EfileConfig } from './config';
import { openEfileDeps, type EfileDeps, type EfileDepsOptions } from './deps';
import { createAuth } from './http/auth';
import type { EfileApp, EfileContext } from './http/context';
import { installParsers } from './http/parsers';
import { registerFeatures } from './features';
import { singleModeWarning } from './userfs/single-mode';

export interface RegisterOptions {
  /** Mount point, e.g. '/efile/11250' in the all-in-one start; '' standalone. */
  prefix?: string;
}

/**
 * Registers one efile instance (one cluster) on an existing server under `prefix`: its body parsers,
 * token check and every call of spec §7. Everything stays inside an encapsulated scope, so several instances
 * (one per demo cluster) live side by side on the all-in-one server.
 */
export async function registerEfile(
  app: AppServer,
  deps: EfileDeps,
  opts: RegisterOptions = {},
): Promise<void> {
  const warning = singleModeWarning(deps.config, deps.resolver);
  if (warning) app.log.warn({ clusterId: deps.config.EFILE_CLUSTER_ID }, warning);
  await app.register(
    async (instance) => {
      const scope = instance as unknown as EfileApp;
      installParsers(scope);
      const auth = createAuth(deps);
      // Every answer of a user's files must never be cached by a shared proxy. Set first (a route may still replace
      // cache-control), not in onSend: file downloads write their headers to the raw response themselves.
      scope.addHook('onRequest', async (_req, reply) => {
        reply.header('cache-control', 'private, no-store');
        reply.header('x-content-type-options', 'nosniff');
      });
      scope.addHook('onRequest', (req) => auth.hook(req));
      // All-in-one demo only: the user's home is made on their first request (the kit's demo homes, as the job
      // service's), after the token check, which only says who the user is.
      if (deps.config.EFILE_DEMO)
        scope.addHook(
          'onRequest',
          demoHomesHook({
            resolver: deps.resolver,
            rules: {
              unix: deps.config.EFILE_USER_MODE === 'unix',
              minUid: deps.config.EFILE_MIN_UID,
              refusedShells: parseShells(deps.config.EFILE_REFUSED_SHELLS),
            },
            user: (req) => auth.user(req),
            skip: (req) => req.routeOptions.config.efileAuth === 'none',
          }),
        );
      addRoute(scope, FileRoutes.check, { config: { efileAuth: 'none' } }, async () => ({
        check_result: 'ok',
        clusterId: deps.config.EFILE_CLUSTER_ID,
      }));
      const ctx: EfileContext = { deps, auth };
      await registerFeatures(scope, ctx);
    },
    { prefix: opts.prefix ?? '' },
  );
}

/** Builds a standalone efile (server.ts, tests with `inject()`); closes its database and timers on app close. */
export async function buildEfile(
  config: EfileConfig,
  opts: EfileDepsOptions = {},
): Promise<{ app: AppServer; deps: EfileDeps }> {
  const app = createServer({ logLevel: config.LOG_LEVEL, trustProxy: config.TRUST_PROXY });
  const deps = await openEfileDeps(config, opts);
  app.addHook('onClose', () => deps.close());
  // A standalone efile publishes its own OpenAPI (the all-in-one server's /docs already lists every cluster's).
  await app.register(swagger, {
    openapi: { info: { title: `E-File ${config.EFILE_CLUSTER_ID}`, version: '0.1.0' } },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerEfile(app, deps);
  return { app, deps };
}
