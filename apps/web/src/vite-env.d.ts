/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the portal API; empty (same origin) by default. */
  readonly VITE_API_BASE_URL?: string;
  /** Default site-registration number of the footer, until the portal provides its own. */
  readonly VITE_SITE_ICP?: string;
}
