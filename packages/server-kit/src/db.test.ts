import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely, Migration } from 'kysely';
import pg from 'pg';
import { dropSchema, migrate, openDb } from './db';
import { testDbTargets } from './testing.test-fixture';

interface T {
  item: { id: number; name: string };
}

const migrations: Record<string, Migration> = {
  '001': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('item')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
    },
  },
};

describe.each(testDbTargets())('openDb + migrate ($name)', (target) => {
  const { url, schema, cleanup } = target.create();
  afterAll(cleanup);

  it('migrates once, idempotently, and reads back what it wrote', async () => {
    const db = await openDb<T>({ url, schema });
    await migrate(db, migrations);
    await migrate(db, migrations);
    await db.kysely.insertInto('item').values({ id: 1, name: '中文 name' }).execute();
    const rows = await db.kysely.selectFrom('item').selectAll().execute();
    expect(rows).toEqual([{ id: 1, name: '中文 name' }]);
    expect(db.kind).toBe(target.name);
    await db.close();
  });
});

describe('a SQLite file', () => {
  it('is readable by its owner alone, its -wal and -shm too, also one left readable by an older version', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-mode-'));
    try {
      const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
      const fresh = path.join(dir, 'fresh.db');
      const db = await openDb<T>({ url: fresh });
      await migrate(db, migrations);
      await db.kysely.insertInto('item').values({ id: 1, name: 'a share code' }).execute();
      expect([mode(fresh), mode(`${fresh}-wal`), mode(`${fresh}-shm`)]).toEqual(['600', '600', '600']);
      await db.close();
      // An older version made them 0644 (the process's umask): opened again, they are narrowed.
      for (const f of [fresh, `${fresh}-wal`, `${fresh}-shm`]) if (fs.existsSync(f)) fs.chmodSync(f, 0o644);
      const again = await openDb<T>({ url: fresh });
      expect((await again.kysely.selectFrom('item').selectAll().execute()).length).toBe(1);
      for (const f of [fresh, `${fresh}-wal`, `${fresh}-shm`])
        if (fs.existsSync(f)) expect(mode(f)).toBe('600');
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Other suites drop their schemas while this one migrates (test runs have two workers): the migrator's look at the
// tables reads every schema by name and failed on one dropped at that moment (`schema "t_…" does not exist`, once in
// CI). 150 schemas dropped one by one while four suites migrate again and again, each in a schema of its own.
describe.runIf(process.env.TEST_DATABASE_URL)('migrate beside schemas being dropped (postgres)', () => {
  it('never fails on a schema that another suite drops meanwhile', async () => {
    const pgTarget = testDbTargets().find((t) => t.name === 'postgres')!;
    // Made through one connection: the server's connections are shared with the suites running beside this one.
    const others = Array.from({ length: 150 }, () => pgTarget.create());
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    for (const t of others)
      await admin.query(`CREATE SCHEMA ${t.schema}; CREATE TABLE ${t.schema}.x (id integer)`);
    await admin.end();
    const mine = Array.from({ length: 4 }, () => pgTarget.create());
    let dropping = true;
    try {
      await Promise.all([
        (async () => {
          for (const t of others) await dropSchema(t.url, t.schema!);
          dropping = false;
        })(),
        ...mine.map(async (t) => {
          const db = await openDb<T>({ url: t.url, schema: t.schema });
          try {
            // Each call looks at every schema again, up to date or not.
            while (dropping) await migrate(db, migrations);
          } finally {
            await db.close();
          }
        }),
      ]);
    } finally {
      await Promise.all(mine.map((t) => t.cleanup()));
    }
  }, 60_000);
});
