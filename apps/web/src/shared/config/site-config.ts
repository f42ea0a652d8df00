import { useQuery } from '@tanstack/react-query';
import type { AnalyticsConfig } from '@hpc/contracts';
import { apiClient } from '../api/client';

/** Site-wide settings the operators configure; the portal's values win over these build-time defaults. */
export interface SiteConfig {
  /** Site-registration number in the footer (spec §1). */
  icp: string;
  /** Where the ICP number links to (the MIIT registry). */
  icpUrl: string;
  /** Analytics tracker and production hosts (spec §7); null when not configured. */
  analytics: AnalyticsConfig | null;
}

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
    queryFn: ({ signal }) => apiClient.get<Partial<SiteConfig>>('/api/site/config', undefined, { signal }),
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
