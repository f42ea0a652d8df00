import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ESHELL_WS_PATH, EshellRoutes } from '@hpc/contracts';
import { addRoute, createServer, ok, type AppServer, type ServerOptions } from '@hpc/server-kit';
import { registerTokenCheck } from '@hpc/cluster-kit';
import type { EshellConfig } from './config';
import { openEshellDeps, type EshellDeps, type EshellDepsOptions } from './deps';
import type { EshellApp } from './http/context';
import { registerShellSocket } from './http/socket';
import { registerFeatures } from './features';
import { watchRevocations } from './sessions/revocation-watch';

export interface RegisterOptions {
  /** Mount point, e.g. '/eshell/11250' in the all-in-one start; '' standalone. */
  prefix?: string;
}

const VERSION = '0.1.0';

/**
 * Registers one shell service (one cluster) on an existing server under `prefix`: the health call, the token check
 * and the calls in an encapsulated scope, and the terminal's socket on the server's `upgrade`. Closing the server
 * ends every session (the pages are told the service restarts).
 */
export async function registerEshell(
  app: AppServer,
  deps: EshellDeps,
  opts: RegisterOptions = {},
): Promise<void> {
  const prefix = opts.prefix ?? '';
  await app.register(
    async (instance) => {
      const scope = instance as unknown as EshellApp;
      scope.addHook('onRequest', async (_req, reply) => {
        reply.header('cache-control', 'private, no-store');
      });
      const auth = registerTokenCheck(instance, deps.tokens, {
        isPublic: (req) => req.routeOptions.url?.endsWith(EshellRoutes.check.path) === true,
      });
      addRoute(scope, EshellRoutes.check, async () =>
        ok({
          check_result: true,
          version: VERSION,
          clusterId: deps.config.ESHELL_CLUSTER_ID,
          nodes: deps.config.loginNodes.map((n) => n.address),
        }),
      );
      await registerFeatures(scope, { deps, user: auth.user, claims: auth.claims });
    },
    { prefix },
  );
  const stopWatch = watchRevocations({
    sessions: deps.sessions,
    revocations: deps.revocations,
    ownerRights: deps.ownerRights,
    everyMs: deps.config.ESHELL_REVOCATION_CHECK_S * 1000,
    now: deps.now,
    log: app.log,
  });
  const closeSocket = registerShellSocket(app.server, `${prefix}${ESHELL_WS_PATH}`, deps, app.log);
  app.addHook('preClose', async () => {
    stopWatch();
    await deps.sessions.close();
    closeSocket();
  });
}

export interface BuildOptions extends EshellDepsOptions {
  /** Where the log lines go (tests read the session lines); stdout otherwise. */
  logStream?: ServerOptions['logStream'];
}

/** Builds a standalone shell service (server.ts, tests); ends its sessions on close. */
export async function buildEshell(
  config: EshellConfig,
  opts: BuildOptions = {},
): Promise<{ app: AppServer; deps: EshellDeps }> {
  const app = createServer({
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
  });
  const deps = await openEshellDeps(config, app.log, opts);
  app.addHook('onClose', () => deps.close());
  await app.register(swagger, {
    openapi: { info: { title: `E-Shell ${config.ESHELL_CLUSTER_ID}`, version: VERSION } },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerEshell(app, deps);
  return { app, deps };
}
