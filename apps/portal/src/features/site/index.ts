import { ok, type AppServer } from '@hpc/server-kit';
import { SiteConfigResponse } from '@hpc/contracts';
import type { PortalDeps } from '../../deps';

/** The MIIT registry, where a Chinese site-registration number links to. */
const ICP_REGISTRY_URL = 'https://beian.miit.gov.cn/';

/** Site-wide settings the SPA reads once (anonymous: the footer shows on every page, login included). */
export async function siteFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const config = { icp: deps.config.SITE_ICP, icpUrl: ICP_REGISTRY_URL };
  app.get('/api/site/config', { schema: { response: { 200: SiteConfigResponse } } }, () => ok(config));
}
