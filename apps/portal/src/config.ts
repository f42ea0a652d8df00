import path from 'node:path';
import { Type, type Static } from 'typebox';
import { loadConfig } from '@hpc/server-kit';

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
  /** Password of the demo users seeded on an empty database. */
  PORTAL_DEMO_PASSWORD: Type.String({ default: 'demo-portal-2026' }),
  /** Seed demo data on an empty database. */
  SEED_DEMO: Type.Boolean({ default: true }),
  TRUST_PROXY: Type.Boolean({ default: false }),
  OIDC_ISSUER: Type.String({ default: '' }),
  OIDC_CLIENT_ID: Type.String({ default: '' }),
  OIDC_CLIENT_SECRET: Type.String({ default: '' }),
});

export type PortalEnv = Static<typeof PortalEnv>;

export interface PortalConfig extends PortalEnv {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** DATABASE_URL or the SQLite file. */
  databaseUrl: string;
  /** PostgreSQL schema (tests only). */
  databaseSchema?: string;
}

export function readPortalConfig(env: Record<string, string | undefined> = process.env): PortalConfig {
  const e = loadConfig(PortalEnv, env);
  const dataDir = path.resolve(e.DATA_DIR);
  return { ...e, dataDir, databaseUrl: e.DATABASE_URL || path.join(dataDir, 'portal.db') };
}
