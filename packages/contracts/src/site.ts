import { Type, type Static } from 'typebox';
import { Envelope } from './envelope';

/** `GET /api/site/config`: what the operators configure for every page (footer registration number, spec §1). */
export const SiteConfig = Type.Object({
  icp: Type.String(),
  icpUrl: Type.String(),
});
export type SiteConfig = Static<typeof SiteConfig>;
export const SiteConfigResponse = Envelope(SiteConfig);
