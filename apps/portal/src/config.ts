import path from 'node:path';
import { Type, type Static } from 'typebox';
import { TrustProxySetting, loadConfig } from '@hpc/server-kit';

/** The portal's environment, read once at start (DESIGN.md §5.4). Every variable is documented in docs/OPERATIONS.md. */
export const PortalEnv = Type.Object({
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATA_DIR: Type.String({ default: './data' }),
  /** `postgres://…` for the scaled-out mode; empty means SQLite at DATA_DIR/portal.db. */
  DATABASE_URL: Type.String({ default: '' }),
  /** Redis for shared short-lived state when several instances run; empty means in memory. */
  REDIS_URL: Type.String({ default: '' }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  /** The public base URL (https://portal.example.org); used for links, cookies' Secure flag and SSO redirects. */
  PUBLIC_URL: Type.String({ default: '' }),
  /** Folder of the built SPA; empty means apps/web/dist next to the code. */
  WEB_DIST: Type.String({ default: '' }),
  /** Footer's site-registration number (spec §1). */
  SITE_ICP: Type.String({ default: '京ICP备00000000号-1' }),
  /** Where the web sends analytics (spec §7); empty means no analytics at all. */
  ANALYTICS_TRACKER_URL: Type.String({ default: '' }),
  /** The production host names (comma-separated) on which analytics is sent; empty means none. */
  ANALYTICS_HOSTS: Type.String({ default: '' }),
  /** Password of the demo users seeded on an empty database. */
  PORTAL_DEMO_PASSWORD: Type.String({ default: 'demo-portal-2026' }),
  /** Seed demo data on an empty database. */
  SEED_DEMO: Type.Boolean({ default: true }),
  TRUST_PROXY: TrustProxySetting,
  OIDC_ISSUER: Type.String({ default: '' }),
  OIDC_CLIENT_ID: Type.String({ default: '' }),
  OIDC_CLIENT_SECRET: Type.String({ default: '' }),
  /** Scopes asked of the OpenID provider; the user's name and e-mail come from its userinfo answer. */
  OIDC_SCOPES: Type.String({ default: 'openid profile email' }),
  /** The claim that names a new SSO user (falls back to the e-mail's local part, then to the subject). */
  OIDC_USERNAME_CLAIM: Type.String({ default: 'preferred_username' }),
  /** A session ends after this long without a request, and at the latest this long after login. */
  SESSION_IDLE_MINUTES: Type.Integer({ default: 120, minimum: 1 }),
  SESSION_MAX_HOURS: Type.Integer({ default: 168, minimum: 1 }),
  /** Failed logins allowed per user name and per client address within the window, then 429. */
  LOGIN_MAX_FAILURES_PER_USER: Type.Integer({ default: 5, minimum: 1 }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({ default: 20, minimum: 1 }),
  LOGIN_FAILURE_WINDOW_MINUTES: Type.Integer({ default: 15, minimum: 1 }),
  /** Lifetime of the per-cluster tokens (capped at 12 h). */
  CLUSTER_TOKEN_TTL_MINUTES: Type.Integer({ default: 720, minimum: 1, maximum: 720 }),
  /** Folder of the Ed25519 signing keys; empty means DATA_DIR/keys. Share it between scaled-out instances. */
  SIGNING_KEYS_DIR: Type.String({ default: '' }),
  /** Check the request-time header (spec §7) on /api/ calls; off only for debugging. */
  REQUEST_TIME_CHECK: Type.Boolean({ default: true }),
  /**
   * Shared with scaled-out efile instances (their EFILE_SERVICE_SECRET): lets them ask for a share owner's or a Linux
   * command's user's current rights (GET /api/internal/efile/owner-rights). Empty: that call answers 404.
   */
  EFILE_SERVICE_SECRET: Type.String({ default: '' }),
  /** Key prefix in Redis, so several portals (or tests) can share one server. */
  REDIS_KEY_PREFIX: Type.String({ default: 'portal:' }),
});

export type PortalEnv = Static<typeof PortalEnv>;

export interface PortalConfig extends PortalEnv {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** DATABASE_URL or the SQLite file. */
  databaseUrl: string;
  /** PostgreSQL schema (tests only). */
  databaseSchema?: string;
  /** The clock (ms since the epoch) for sessions, throttling windows and alerts; tests move it. */
  now?: () => number;
}

export function readPortalConfig(env: Record<string, string | undefined> = process.env): PortalConfig {
  const e = loadConfig(PortalEnv, env);
  const dataDir = path.resolve(e.DATA_DIR);
  return { ...e, dataDir, databaseUrl: e.DATABASE_URL || path.join(dataDir, 'portal.db') };
}
