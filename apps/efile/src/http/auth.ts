import type { FastifyRequest } from 'fastify';
import { AppError } from '@hpc/server-kit';
import type { EfileDeps } from '../deps';
import type { UserScope } from '../fs/path-resolver';
import { ensureDemoHome } from '../fs/demo-home';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'user' (default): the portal's cluster token; 'none': health check, anonymous share and scoped-token calls. */
    efileAuth?: 'user' | 'none';
    /** Calls a disabled account may still make (initInfo shows the user who they are). */
    allowDisabled?: boolean;
  }
}

export interface EfileUser extends UserScope {
  sub: string;
  cun: string;
  home: string;
  /** Account expiry (ms) or null. */
  expAcct: number | null;
}

/** Authenticates each request once (onRequest) and keeps the user per request for the routes of this instance. */
export function createAuth(deps: EfileDeps) {
  const users = new WeakMap<FastifyRequest, EfileUser>();
  const seeded = new Set<string>();
  return {
    async hook(req: FastifyRequest) {
      const cfg = req.routeOptions.config;
      if (cfg.efileAuth === 'none') return;
      const header = req.headers.token;
      const fromQuery = (req.query as Record<string, unknown> | undefined)?.token;
      const token =
        typeof header === 'string' && header ? header : typeof fromQuery === 'string' ? fromQuery : undefined;
      const claims = await deps.verifier.verify(token);
      if (claims.st === 'Disable' && !cfg.allowDisabled) throw new AppError('1007');
      const home = claims.home || deps.config.EFILE_HOME_PATTERN.replace('{user}', claims.cun);
      const user: EfileUser = {
        sub: claims.sub,
        cun: claims.cun,
        home,
        roots: [home, ...claims.paths],
        expAcct: claims.exp_acct,
      };
      if (deps.config.EFILE_DEMO && !seeded.has(`${user.sub}|${user.roots.join('|')}`)) {
        await ensureDemoHome(deps.resolver, user);
        seeded.add(`${user.sub}|${user.roots.join('|')}`);
      }
      users.set(req, user);
    },
    user(req: FastifyRequest): EfileUser {
      const u = users.get(req);
      if (!u) throw new AppError('1406');
      return u;
    },
  };
}
export type Auth = ReturnType<typeof createAuth>;
