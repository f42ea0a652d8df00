import { useQuery } from '@tanstack/react-query';
import type { SiteConfig } from '@hpc/contracts';
import { identity } from '../api/client';

/** Site-wide settings the operators configure (contracts' `SiteConfig`); the portal's values win over these build-time defaults. */

export const siteDefaults: SiteConfig = {
  icp: import.meta.env.VITE_SITE_ICP ?? '京ICP备00000000号-1',
  icpUrl: 'https://beian.miit.gov.cn/',
  analytics: null,
};

/**
 * The site configuration: `GET /api/site/config` when the portal answers it, else the defaults above. Silent on
 * failure: a footer must never raise a warning.
 */
export function useSiteConfig(): SiteConfig {
  const { data } = useQuery({
    queryKey: ['site-config'],
    queryFn: ({ signal }) => identity.site.config({ signal }),
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
  return {
    ...siteDefaults,
    ...(data?.icp ? { icp: data.icp } : {}),
    ...(data?.icpUrl ? { icpUrl: data.icpUrl } : {}),
    ...(data?.analytics ? { analytics: data.analytics } : {}),
  };
}
