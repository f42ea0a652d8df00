import { installFormParser, type AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { portalEfileClient } from '../../efile-client';
import { routeGroup } from '../identity';
import { packageOrigins } from './client-package';
import { clientPresence } from './client-presence';
import { fastransClientRoutes, fastransPageRoutes } from './fastrans.routes';
import { fastransService } from './fastrans.service';
import { relayService } from './relay.service';

/**
 * Fast transfer on the portal (issue 11 §2): the page's login, permission check, presence and relay under the
 * model-zoo file-service prefix (a `user` route group: session cookie and CSRF header), and the client's own calls,
 * the fast-transfer web server and the relay's poll (a `public` group: the client's web token).
 */
export async function fastransFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const { services, http } = app.identity;
  // One record of the user's running clients, kept by the web server's heartbeat and the relay's poll alike.
  const presence = clientPresence(deps.kv);
  // The permission check asks the cluster's efile, 10 s per instance (relative URLs: instances on this server).
  const efileAt = (base: string, clusterId: string, token: string) =>
    portalEfileClient(app, base, clusterId, token, 10_000);
  const service = fastransService(deps, services, efileAt, presence);
  const relay = relayService(deps.kv, presence);
  const origins = () => packageOrigins(deps.config.PUBLIC_URL, app.server.address());

  await app.register(async (scope: AppServer) => {
    installFormParser(scope);
    await scope.register(routeGroup(http, 'user', (s) => fastransPageRoutes(s, service, relay, http)));
    await scope.register(
      routeGroup(http, 'public', (s) => fastransClientRoutes(s, service, relay, origins, http)),
    );
  });
}
