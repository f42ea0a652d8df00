import type { FastifyRequest } from 'fastify';
import type { EfileDeps } from '../deps';
import { ensureDemoHome } from '../fs/demo-home';
import type { Auth } from './auth';

/**
 * All-in-one demo only (EFILE_DEMO): an `onRequest` hook after the token check that makes the request's user's home
 * and granted folders on their first request (fs/demo-home.ts). Apart from the token check, which only says who the
 * user is: a request whose folders cannot be made (an unknown cluster user in unix mode: 601009) fails here.
 */
export function demoHomes(deps: EfileDeps, auth: Auth) {
  const seeded = new Set<string>();
  return async (req: FastifyRequest) => {
    if (req.routeOptions.config.efileAuth === 'none') return;
    const user = auth.user(req);
    const key = `${user.sub}|${user.roots.join('|')}`;
    if (seeded.has(key)) return;
    await ensureDemoHome(deps.resolver, user, deps.config);
    seeded.add(key);
  };
}
