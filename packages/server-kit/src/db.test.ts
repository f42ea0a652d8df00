import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely, Migration } from 'kysely';
import { migrate, openDb } from './db';
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
