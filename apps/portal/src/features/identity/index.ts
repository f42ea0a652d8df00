import type { ServiceListParam } from '@hpc/contracts';
import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { identityServicesOf } from './identity.services';

// What other features, the app and the admin CLI use of identity: nothing else of this folder is imported from
// outside it (eslint.config.js).
export { createIdentityServices, identityServicesOf, type IdentityServices } from './identity.services';
export { identityServices, identityFeaturePlugin, type IdentityContext } from './identity.plugin';
export type { SessionHttp } from './http/session-http';
export { routeGroup, type Access } from './http/route-groups';
export { seedIdentity } from './identity.seed';
export { toAdminUser } from './data/user.model';
export type { LiveSession, SessionSummary } from './services/session.service';
export type { UserRepository } from './data/user.repository';

/**
 * Registers identity's routes (`http/register.ts`). Loaded when called: the admin CLI imports this index for the
 * services alone, and the routes with the OpenID client cost each CLI run seconds of start-up on a loaded machine.
 */
export async function identityFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const { registerIdentity } = await import('./http/register');
  await registerIdentity(app, deps);
}

/**
 * The current rights of a portal user on one cluster, for efile instances in the same process (the all-in-one
 * start): what scaled-out instances ask `GET /api/internal/efile/owner-rights` for.
 */
export function ownerRightsLookup(deps: PortalDeps) {
  const { tokens } = identityServicesOf(deps);
  return (clusterId: string) => (sub: string) => tokens.currentRights(sub, clusterId);
}

/**
 * Publishes the job service the all-in-one mounts (issue 22 §1): `url` (relative, e.g. '/jobs/11250') becomes the
 * cluster's enabled `gridview_service`, and a relative /jobs/ entry an earlier start left on any other cluster is
 * taken away, so a centre lists a job service only while one is mounted. Operators' absolute URLs are never touched.
 */
export async function publishMountedJobService(
  deps: PortalDeps,
  clusterId: string | null,
  url: string | null,
) {
  await publishMounted(deps, 'gridview_service', (u) => u.startsWith('/jobs/'), clusterId, url ? [url] : []);
}

/**
 * Publishes the shell service the all-in-one mounts (issue 26 §1) as the cluster's `sothisai_service` ('/eshell/<id>',
 * relative), and the login node it serves (this machine's sshd, `127.0.0.1:<port>`) first in its `sshAddressList`;
 * what an earlier start published on any cluster is taken away, so a centre lists the shell only while it is mounted.
 */
export async function publishMountedShellService(
  deps: PortalDeps,
  clusterId: string | null,
  url: string | null,
  loginNodes: string[],
) {
  await publishMounted(
    deps,
    'sothisai_service',
    (u) => u.startsWith('/eshell/'),
    clusterId,
    url ? [url] : [],
  );
  await publishMounted(
    deps,
    'sshAddressList',
    (u) => /^127\.0\.0\.1:\d+$/.test(u),
    clusterId,
    url ? loginNodes : [],
  );
}

/** Puts `urls` (enabled) first in a service list of `clusterId`, and removes the `ours` entries everywhere else. */
async function publishMounted(
  deps: PortalDeps,
  param: ServiceListParam,
  ours: (url: string) => boolean,
  clusterId: string | null,
  urls: string[],
) {
  const { clusters } = identityServicesOf(deps);
  for (const c of await clusters.list()) {
    let entries: { url: string; enable: 'true' | 'false' }[] = [];
    try {
      entries = JSON.parse(c.params[param] ?? '[]') as typeof entries;
    } catch {
      continue;
    }
    const kept = entries.filter((e) => !ours(e.url));
    const next =
      c.clusterId === clusterId ? [...urls.map((url) => ({ url, enable: 'true' as const })), ...kept] : kept;
    if (JSON.stringify(next) !== JSON.stringify(entries))
      await clusters.setServiceList(c.clusterId, param, next);
  }
}
