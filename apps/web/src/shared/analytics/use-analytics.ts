import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { AnalyticsConfig } from '@hpc/contracts';
import { useSiteConfig } from '../config/site-config';

/** Whether analytics applies on this host: configured, and the page is served from one of the production hosts. */
export function analyticsEnabled(
  config: AnalyticsConfig | null,
  hostname: string,
): config is AnalyticsConfig {
  return !!config && !!config.trackerUrl && config.hosts.includes(hostname.toLowerCase());
}

/**
 * Analytics of spec §7: on the configured production hosts only, a page view per address and heartbeats while the
 * page is shown (shared/analytics/tracker.ts). Anywhere else nothing is sent, and the tracker's code is not even
 * loaded (it is a part of its own).
 */
export function useAnalytics(): void {
  const { analytics } = useSiteConfig();
  const { pathname, search } = useLocation();
  const enabled = analyticsEnabled(analytics, window.location.hostname);
  const trackerUrl = enabled ? analytics.trackerUrl : null;
  useEffect(() => {
    if (!trackerUrl) return;
    let cancelled = false;
    void import('./tracker')
      .then((m) => {
        if (!cancelled) m.trackPageView(trackerUrl, `${pathname}${search}`);
      })
      .catch(() => undefined); // analytics never bothers the user
    return () => {
      cancelled = true;
    };
  }, [trackerUrl, pathname, search]);
}
