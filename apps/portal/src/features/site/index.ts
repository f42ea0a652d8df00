import { addRoute, ok, type AppServer } from '@hpc/server-kit';
import { SiteRoutes } from '@hpc/contracts';
import type { PortalDeps } from '../../deps';
import { STATIC_404_HTML, STATIC_404_PATH, STATIC_404_SCRIPT, STATIC_404_SCRIPT_PATH } from './static-404';

/** The MIIT registry, where a Chinese site-registration number links to. */
const ICP_REGISTRY_URL = 'https://beian.miit.gov.cn/';

/**
 * Site-wide settings the SPA reads once (anonymous: the footer shows on every page, login included), and the static
 * 404 page of spec §2 that the SPA sends unknown addresses to in production.
 */
export async function siteFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const hosts = deps.config.ANALYTICS_HOSTS.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const trackerUrl = deps.config.ANALYTICS_TRACKER_URL.trim();
  const config = {
    icp: deps.config.SITE_ICP,
    icpUrl: ICP_REGISTRY_URL,
    // Both are needed: a tracker without production hosts (or hosts without a tracker) sends nothing.
    analytics: trackerUrl && hosts.length > 0 ? { trackerUrl, hosts } : null,
  };
  addRoute(app, SiteRoutes.config, () => ok(config));

  // Answered 404 (it is one) and never cached, so a later release's page replaces it at once.
  app.get(STATIC_404_PATH, { schema: { hide: true } }, (_req, reply) =>
    reply
      .status(404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(STATIC_404_HTML),
  );
  app.get(STATIC_404_SCRIPT_PATH, { schema: { hide: true } }, (_req, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/javascript; charset=utf-8')
      .send(STATIC_404_SCRIPT),
  );
}
