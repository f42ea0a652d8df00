import fs from 'node:fs';
import type { Kysely } from 'kysely';
import {
  createKv,
  migrate,
  openDb,
  type ClusterTokenVerifier,
  type KvStore,
  type RevocationStore,
} from '@hpc/server-kit';
import type { EfileConfig } from './config';
import type { EfileDatabase } from './db/database';
import { migrations } from './db/migrations';
import {
  noOwnerRights,
  openPortalTrust,
  PathResolver,
  type OwnerRightsLookup,
  type PortalTrustOptions,
} from '@hpc/cluster-kit';
import { createUserFs } from './userfs';
import type { UserFs } from './userfs/types';

/** What every efile feature is built from. `now` is injectable so tests can move the clock (Linux commands). */
export interface EfileDeps {
  config: EfileConfig;
  db: Kysely<EfileDatabase>;
  kv: KvStore;
  resolver: PathResolver;
  /** Every operation on a user's files (in-process in single mode, the user's worker in unix mode). */
  userfs: UserFs;
  verifier: ClusterTokenVerifier;
  /**
   * The portal's revocations (ended sessions, disabled users, revoked day tokens and Linux commands), checked on
   * every request; also where Linux commands are recorded for the user centre. Redis under its own prefix when
   * REDIS_URL is set (the portal's keys), else memory (the all-in-one passes the portal's).
   */
  revocations: RevocationStore;
  /** The current rights of a share's owner or a Linux command's user, asked on every use (issue 10 §2.3, §2.5). */
  ownerRights: OwnerRightsLookup;
  now: () => number;
  close(): Promise<void>;
}

export interface EfileDepsOptions extends PortalTrustOptions {
  /** A shared store (tests, all-in-one); otherwise REDIS_URL or memory. */
  kv?: KvStore;
  now?: () => number;
}

export async function openEfileDeps(config: EfileConfig, opts: EfileDepsOptions = {}): Promise<EfileDeps> {
  if (!opts.jwks && !config.EFILE_JWKS_URL) throw new Error('EFILE_JWKS_URL is required (the portal JWKS)');
  fs.mkdirSync(config.fsRoot, { recursive: true });
  // The resolver compares real paths: the root itself must be real (e.g. /tmp may be a link elsewhere).
  const fsRoot = fs.realpathSync(config.fsRoot);
  const db = await openDb<EfileDatabase>({ url: config.databaseUrl, schema: config.databaseSchema });
  await migrate(db, migrations);
  const ownKv = !opts.kv;
  const kv = opts.kv ?? createKv(config.REDIS_URL || undefined, `efile:${config.EFILE_CLUSTER_ID}:`);
  const portal = openPortalTrust(
    {
      clusterId: config.EFILE_CLUSTER_ID,
      jwksUrl: config.EFILE_JWKS_URL,
      portalUrl: config.EFILE_PORTAL_URL,
      serviceSecret: config.EFILE_SERVICE_SECRET,
      redisUrl: config.REDIS_URL,
    },
    opts,
  );
  const resolver = new PathResolver(fsRoot);
  const userfs = await createUserFs(config, resolver);
  return {
    config,
    ownerRights: portal.ownerRights ?? noOwnerRights,
    db: db.kysely,
    kv,
    resolver,
    userfs,
    verifier: portal.verifier,
    revocations: portal.revocations,
    now: opts.now ?? Date.now,
    async close() {
      await userfs.close();
      if (ownKv) await kv.close();
      await portal.close();
      await db.close();
    },
  };
}
