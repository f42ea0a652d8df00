import path from 'node:path';
import {
  createKv,
  migrate,
  openDb,
  openRevocationStore,
  type Db,
  type KvStore,
  type RevocationStore,
} from '@hpc/server-kit';
import type { Kysely } from 'kysely';
import type { JSONWebKeySet } from 'jose';
import type { PortalConfig } from './config';
import type { PortalDatabase } from './db/database';
import { migrations } from './db/migrations';
import { openSigningKeys, signingKeysDir, type SigningKeys } from './keys/signing-keys';

/** What the portal's features are built from: configuration, the database and the shared short-lived store. */
export interface PortalDeps {
  config: PortalConfig;
  db: Kysely<PortalDatabase>;
  dbKind: Db<PortalDatabase>['kind'];
  kv: KvStore;
  /**
   * Ended sessions, disabled users, revoked day tokens and Linux commands, which every cluster service checks on
   * each request: its own keys (`hpc:identity:`) in Redis when `REDIS_URL` is set, else in memory (the all-in-one
   * hands this store to its efile instances).
   */
  revocations: RevocationStore;
  /** The clock: `config.now` in tests, else Date.now. */
  now(): number;
  /** The Ed25519 keys that sign per-cluster tokens (DATA_DIR/keys, created on first start). */
  signingKeys: SigningKeys;
  /** The public keys as a JWKS: what GET /api/auth/jwks.json serves and what in-process efile instances verify with. */
  publicJwks(): JSONWebKeySet;
  close(): Promise<void>;
}

/** Opens the database (migrating it) and connects the store. Demo data is its callers' to seed (`seed.ts`). */
export async function openPortalDeps(config: PortalConfig): Promise<PortalDeps> {
  const db = await openDb<PortalDatabase>({ url: config.databaseUrl, schema: config.databaseSchema });
  await migrate(db, migrations);
  const kv = createKv(config.REDIS_URL || undefined, config.REDIS_KEY_PREFIX);
  // Without Redis, the ended sessions and disabled users are kept in DATA_DIR over a restart.
  const revocations = openRevocationStore(
    config.REDIS_URL || undefined,
    path.join(config.dataDir, 'revocations.jsonl'),
  );
  const signingKeys = openSigningKeys(signingKeysDir(config));
  const deps: PortalDeps = {
    config,
    db: db.kysely,
    dbKind: db.kind,
    kv,
    revocations: revocations.store,
    now: config.now ?? Date.now,
    signingKeys,
    publicJwks: () => signingKeys.jwks(),
    async close() {
      await kv.close();
      await revocations.close();
      await db.close();
    },
  };
  return deps;
}
