import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyRequest } from 'fastify';
import { JobRoutes } from '@hpc/contracts';
import { addRoute, createServer, ok, type AppServer } from '@hpc/server-kit';
import { demoHomesHook, parseShells, PathResolver, registerTokenCheck } from '@hpc/cluster-kit';
import type { JobsConfig } from './config';
import { openJobsDeps, type JobsDeps, type JobsDepsOptions } from './deps';
import type { JobsApp } from './http/context';
import { registerFeatures } from './features';

export interface RegisterOptions {
  /** Mount point, e.g. '/jobs/11250' in the all-in-one start; '' standalone. */
  prefix?: string;
}

const VERSION = '0.1.0';

/**
 * Registers one job service (one cluster) on an existing server under `prefix`: the token check and every call of
 * issue 22 §2, in an encapsulated scope, so it can sit beside efile instances on the all-in-one server.
 */
export async function registerJobs(
  app: AppServer,
  deps: JobsDeps,
  opts: RegisterOptions = {},
): Promise<void> {
  await app.register(
    async (instance) => {
      const scope = instance as unknown as JobsApp;
      scope.addHook('onRequest', async (_req, reply) => {
        reply.header('cache-control', 'private, no-store');
      });
      // Every call but the health check needs the token; a disabled account may still look (its own rules refuse
      // what would charge it: submit and release).
      const isPublic = (req: FastifyRequest) =>
        req.routeOptions.url?.endsWith(JobRoutes.version.path) === true;
      const auth = registerTokenCheck(instance, deps.tokens, { isPublic, allowDisabled: () => true });
      // All-in-one demo only: the user's home is made on their first request, as E-File's first request makes it
      // (the kit's demo homes): the working directory, templates and outputs are in it.
      if (deps.config.JOBS_DEMO)
        scope.addHook(
          'onRequest',
          demoHomesHook({
            resolver: new PathResolver(deps.config.fsRoot),
            rules: {
              unix: deps.config.JOBS_USER_MODE === 'unix',
              minUid: deps.config.JOBS_MIN_UID,
              refusedShells: parseShells(deps.config.JOBS_REFUSED_SHELLS),
            },
            user: auth.user,
            skip: isPublic,
          }),
        );
      addRoute(scope, JobRoutes.version, async () =>
        ok({ version: VERSION, scheduler: deps.reader.name, clusterId: deps.config.JOBS_CLUSTER_ID }),
      );
      await registerFeatures(scope, { deps, user: auth.user });
    },
    { prefix: opts.prefix ?? '' },
  );
}

/** Builds a standalone job service (server.ts, tests with `inject()`); stops its poller and workers on close. */
export async function buildJobs(
  config: JobsConfig,
  opts: JobsDepsOptions = {},
): Promise<{ app: AppServer; deps: JobsDeps }> {
  const app = createServer({ logLevel: config.LOG_LEVEL, trustProxy: config.TRUST_PROXY });
  const deps = await openJobsDeps(config, opts);
  app.addHook('onClose', () => deps.close());
  await app.register(swagger, {
    openapi: { info: { title: `Jobs ${config.JOBS_CLUSTER_ID}`, version: VERSION } },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerJobs(app, deps);
  return { app, deps };
}
