import { createKv, migrate, openDb, type Db, type KvStore } from '@hpc/server-kit';
import type { Kysely } from 'kysely';
import type { PortalConfig } from './config';
import type { PortalDatabase } from './db/database';
import { migrations } from './db/migrations';
import { seedDemo } from './db/seed';

/** What the portal's features are built from: configuration, the database and the shared short-lived store. */
export interface PortalDeps {
  config: PortalConfig;
  db: Kysely<PortalDatabase>;
  dbKind: Db<PortalDatabase>['kind'];
  kv: KvStore;
  close(): Promise<void>;
}

/** Opens the database (migrating it), seeds demo data on an empty one when asked, and connects the store. */
export async function openPortalDeps(config: PortalConfig): Promise<PortalDeps> {
  const db = await openDb<PortalDatabase>({ url: config.databaseUrl, schema: config.databaseSchema });
  await migrate(db.kysely as Kysely<unknown>, migrations);
  const kv = createKv(config.REDIS_URL || undefined, 'portal:');
  const deps: PortalDeps = {
    config,
    db: db.kysely,
    dbKind: db.kind,
    kv,
    async close() {
      await kv.close();
      await db.close();
    },
  };
  if (config.SEED_DEMO) await seedDemo(deps);
  return deps;
}
