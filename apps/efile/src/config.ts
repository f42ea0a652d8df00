import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Limits } from '@hpc/contracts';
import { TrustProxySetting, loadConfig } from '@hpc/server-kit';

/** The environment of one efile instance (one cluster), read once at start. Documented in docs/OPERATIONS.md. */
export const EfileEnv = Type.Object({
  EFILE_CLUSTER_ID: Type.String({ default: '11250', minLength: 1 }),
  EFILE_PORT: Type.Integer({ default: 8090, minimum: 0, maximum: 65535 }),
  EFILE_HOST: Type.String({ default: '0.0.0.0' }),
  /** The portal's JWKS (scaled-out mode), e.g. https://portal.example.org/api/auth/jwks.json. */
  EFILE_JWKS_URL: Type.String({ default: '' }),
  /**
   * The portal's base URL for service calls (scaled-out mode): the current rights of a share's owner or a Linux
   * command's user are asked there on every use. Empty: the origin of EFILE_JWKS_URL.
   */
  EFILE_PORTAL_URL: Type.String({ default: '' }),
  /** The portal's EFILE_SERVICE_SECRET; without it shares and Linux commands answer 1404 when standalone. */
  EFILE_SERVICE_SECRET: Type.String({ default: '' }),
  /** Host folder that cluster paths are relative to: '/' in production, DATA_DIR/clusters/<id> in the demo. */
  EFILE_FS_ROOT: Type.String({ default: '/' }),
  /** Home of a compute user when the token carries none. */
  EFILE_HOME_PATTERN: Type.String({ default: '/public/home/{user}' }),
  /** The centre's shared storage, shown by initInfo (access still needs the token's granted paths). */
  EFILE_SHARE_ROOT: Type.String({ default: '/public/share' }),
  DATA_DIR: Type.String({ default: './data' }),
  /** `postgres://…`; empty means SQLite at DATA_DIR/efile-<clusterId>.db. */
  DATABASE_URL: Type.String({ default: '' }),
  REDIS_URL: Type.String({ default: '' }),
  /** PostgreSQL schema of this cluster's state when several clusters share one database (start:scaled). */
  EFILE_DB_SCHEMA: Type.String({ default: '' }),
  /** Time-to-live of an upload's finalize lock, renewed while held: how long a killed instance blocks a retry. */
  EFILE_FINALIZE_LOCK_SECONDS: Type.Number({ default: 30, minimum: 0.1 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  TRUST_PROXY: TrustProxySetting,
  /** Portal's public URL: share links are <it>/share/<clusterId>/<shareId>; empty gives relative links. */
  EFILE_PORTAL_PUBLIC_URL: Type.String({ default: '' }),
  /** This instance's public base URL for the generated curl commands; empty = taken from the request. */
  EFILE_PUBLIC_URL: Type.String({ default: '' }),
  /**
   * Once a share has had 10 code attempts in 15 minutes: one check per delay, doubling from the first value to the
   * second (Nextcloud-like; docs/SECURITY.md).
   */
  EFILE_SHARE_CODE_MIN_DELAY_S: Type.Integer({ default: 1, minimum: 1, maximum: 600 }),
  EFILE_SHARE_CODE_MAX_DELAY_S: Type.Integer({ default: 30, minimum: 1, maximum: 600 }),
  EFILE_SHARE_MAX_VALID_DAYS: Type.Integer({ default: Limits.defaultShareMaxValidDays, minimum: 1 }),
  EFILE_MAX_CHUNK_SIZE: Type.Integer({ default: 64 * 1024 * 1024, minimum: 1024 }),
  /** Unfinished uploads idle for longer are swept with their partial files. */
  EFILE_PARTIAL_TTL_HOURS: Type.Number({ default: 24, minimum: 0 }),
  EFILE_SWEEP_INTERVAL_MINUTES: Type.Number({ default: 30, minimum: 0 }),
  /**
   * Unfinished uploads (browser and fast transfer together) one user may have at once (features/partial). Each is
   * a row and a partial file until finished, cancelled or swept: without a bound a loop of begins made rows without
   * end (found from outside, 2026-12-01). A folder of many large files opens its sessions a portion at a time, and
   * small files arrive in batches without one: thousands open at once is no transfer's need.
   */
  EFILE_MAX_OPEN_UPLOADS: Type.Integer({ default: 10_000, minimum: 1 }),
  EFILE_PREVIEW_MAX_BYTES: Type.Integer({ default: 5 * 1024 * 1024, minimum: 1 }),
  /** Folders with more files are refused for browser upload and normal download (spec §9: 1000). */
  EFILE_FOLDER_FILE_LIMIT: Type.Integer({ default: Limits.folderFileLimit, minimum: 1 }),
  /** Create homes and sample files on a user's first call (all-in-one demo only). */
  EFILE_DEMO: Type.Boolean({ default: false }),
  /**
   * 'single': every user's files are handled in this process (a laptop, `npm start`). 'unix': each user's files
   * are handled by a worker process running as that user (uid, gid, supplementary groups); efile starts as root,
   * keeps a small root launcher and serves HTTP as EFILE_SERVICE_USER (issue 10, docs/OPERATIONS.md).
   */
  EFILE_USER_MODE: Type.Union([Type.Literal('single'), Type.Literal('unix')], { default: 'single' }),
  /** Unix mode: the account the HTTP front end runs as after binding its port (empty: stay as started). */
  EFILE_SERVICE_USER: Type.String({ default: '' }),
  /** Unix mode: users below this uid never get a worker (system accounts). */
  EFILE_MIN_UID: Type.Integer({ default: 1000, minimum: 1 }),
  /** Unix mode: login shells that refuse a worker, comma-separated. */
  EFILE_REFUSED_SHELLS: Type.String({ default: '/usr/sbin/nologin,/sbin/nologin,/bin/false,/usr/bin/false' }),
  /** Unix mode: a worker exits after this many idle seconds. */
  EFILE_WORKER_IDLE_S: Type.Number({ default: 300, minimum: 1 }),
  /** Unix mode: workers running at once; at the limit the least recently used idle one stops first. */
  EFILE_MAX_WORKERS: Type.Integer({ default: 64, minimum: 1 }),
  /**
   * Unix mode: downloads and zips are written by the user's worker on the client's own connection, handed over
   * by descriptor (userfs/handoff.ts), instead of relayed through this process. Off: always relay (an A/B switch
   * for the bench and a way out should a proxy in front mishandle `Connection: close`).
   */
  EFILE_WORKER_HANDOFF: Type.Boolean({ default: true }),
  /** Unix mode: where the launcher keeps worker sockets and pid files (default DATA_DIR/run). */
  EFILE_RUN_DIR: Type.String({ default: '' }),
});
export type EfileEnv = Static<typeof EfileEnv>;

export interface EfileConfig extends EfileEnv {
  dataDir: string;
  fsRoot: string;
  databaseUrl: string;
  databaseSchema?: string;
}

export function readEfileConfig(env: Record<string, string | undefined> = process.env): EfileConfig {
  const e = loadConfig(EfileEnv, env);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(e.EFILE_CLUSTER_ID))
    throw new Error('EFILE_CLUSTER_ID: letters, digits, _ -');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...e,
    dataDir,
    fsRoot: path.resolve(e.EFILE_FS_ROOT),
    databaseUrl: e.DATABASE_URL || path.join(dataDir, `efile-${e.EFILE_CLUSTER_ID}.db`),
    ...(e.EFILE_DB_SCHEMA ? { databaseSchema: e.EFILE_DB_SCHEMA } : {}),
  };
}
