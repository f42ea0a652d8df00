import { Type, type Static } from 'typebox';
import { Envelope } from './envelope';

/**
 * Analytics (spec §7 "Other"): where page views and heartbeats go, and the production host names on which they are
 * sent. Null when not configured: then the web sends nothing and loads nothing for it.
 */
export const AnalyticsConfig = Type.Object({
  trackerUrl: Type.String(),
  hosts: Type.Array(Type.String()),
});
export type AnalyticsConfig = Static<typeof AnalyticsConfig>;

/** `GET /api/site/config`: what the operators configure for every page (footer registration number, spec §1). */
export const SiteConfig = Type.Object({
  icp: Type.String(),
  icpUrl: Type.String(),
  analytics: Type.Union([AnalyticsConfig, Type.Null()]),
});
export type SiteConfig = Static<typeof SiteConfig>;
export const SiteConfigResponse = Envelope(SiteConfig);
