import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { migrate, openDb, type Db } from '@hpc/server-kit';
import { testDbTargets } from '@hpc/server-kit/testing';
import { partialName } from '../features/partial';
import type { EfileDatabase } from './database';
import { migrations } from './migrations';

/** The migrations before the partial-file core (006): the two old pairs of tables. */
const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '006'));

describe.each(testDbTargets())('migration 006-partials ($name)', (target) => {
  let db: Db<EfileDatabase> | undefined;
  let cleanup: () => Promise<void> = async () => undefined;
  afterEach(async () => {
    await db?.close();
    await cleanup();
  });

  it('moves the rows of both old session tables and their pieces into one table each, with their kind', async () => {
    const t = target.create();
    cleanup = t.cleanup;
    db = await openDb<EfileDatabase>({ url: t.url, schema: t.schema });
    await migrate(db, before);
    const old = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const chunkPartial = `/srv/home/demo/${partialName('a.bin', 'c'.repeat(40))}`;
    const rangePartial = `/srv/home/demo/big/${partialName('b.bin', 'f'.repeat(40))}`;
    await old
      .insertInto('efile_uploads')
      .values({
        id: 'c'.repeat(40),
        owner_sub: 'u-demo',
        owner_cun: 'demo',
        target: '/public/home/demo/a.bin',
        identifier: '300-a.bin',
        total_size: 300,
        chunk_size: 100,
        total_chunks: 3,
        partial_host: chunkPartial,
        status: 'active',
        created_at: 1000,
        updated_at: 2000,
      })
      .execute();
    await old
      .insertInto('efile_upload_chunks')
      .values([
        { upload_id: 'c'.repeat(40), n: 1 },
        { upload_id: 'c'.repeat(40), n: 3 },
      ])
      .execute();
    await old
      .insertInto('efile_fastrans_files')
      .values([
        {
          id: 'f'.repeat(40),
          owner_sub: 'u-demo',
          owner_cun: 'demo',
          target: '/public/home/demo/big/b.bin',
          size: 5000,
          range_size: 1024,
          total_ranges: 5,
          partial_host: rangePartial,
          overwrite: 1,
          status: 'active',
          created_at: 3000,
          updated_at: 4000,
        },
        {
          id: 'd'.repeat(40),
          owner_sub: 'u-demo',
          owner_cun: '',
          target: '/public/home/demo/small.txt',
          size: 4,
          range_size: 4,
          total_ranges: 1,
          partial_host: '',
          overwrite: 0,
          status: 'done',
          created_at: 5000,
          updated_at: 5000,
        },
      ])
      .execute();
    await old
      .insertInto('efile_fastrans_ranges')
      .values([
        { file_id: 'f'.repeat(40), n: 0, sha256: 'a'.repeat(64) },
        { file_id: 'f'.repeat(40), n: 4, sha256: null },
      ])
      .execute();

    await migrate(db, migrations);

    const rows = await db.kysely.selectFrom('efile_partials').selectAll().orderBy('id').execute();
    expect(rows.map((r) => ({ ...r, size: Number(r.size), piece_size: Number(r.piece_size) }))).toEqual([
      {
        id: 'c'.repeat(40),
        kind: 'chunk',
        owner_sub: 'u-demo',
        owner_cun: 'demo',
        target: '/public/home/demo/a.bin',
        identifier: '300-a.bin',
        size: 300,
        piece_size: 100,
        total_pieces: 3,
        partial_host: chunkPartial,
        overwrite: 0,
        status: 'active',
        created_at: 1000,
        updated_at: 2000,
      },
      {
        id: 'd'.repeat(40),
        kind: 'range',
        owner_sub: 'u-demo',
        owner_cun: '',
        target: '/public/home/demo/small.txt',
        identifier: '',
        size: 4,
        piece_size: 4,
        total_pieces: 1,
        partial_host: '',
        overwrite: 0,
        status: 'done',
        created_at: 5000,
        updated_at: 5000,
      },
      {
        id: 'f'.repeat(40),
        kind: 'range',
        owner_sub: 'u-demo',
        owner_cun: 'demo',
        target: '/public/home/demo/big/b.bin',
        identifier: '',
        size: 5000,
        piece_size: 1024,
        total_pieces: 5,
        partial_host: rangePartial,
        overwrite: 1,
        status: 'active',
        created_at: 3000,
        updated_at: 4000,
      },
    ]);
    // The partials keep their names: the core names a session's partial as both front doors did.
    expect(path.basename(rows[0]!.partial_host)).toBe(partialName('a.bin', rows[0]!.id));
    expect(path.basename(rows[2]!.partial_host)).toBe(partialName('b.bin', rows[2]!.id));
    const pieces = await db.kysely
      .selectFrom('efile_partial_pieces')
      .selectAll()
      .orderBy('session_id')
      .orderBy('n')
      .execute();
    expect(pieces).toEqual([
      { session_id: 'c'.repeat(40), n: 1, sha256: null },
      { session_id: 'c'.repeat(40), n: 3, sha256: null },
      { session_id: 'f'.repeat(40), n: 0, sha256: 'a'.repeat(64) },
      { session_id: 'f'.repeat(40), n: 4, sha256: null },
    ]);
    // The old tables are gone.
    for (const table of [
      'efile_uploads',
      'efile_upload_chunks',
      'efile_fastrans_files',
      'efile_fastrans_ranges',
    ])
      await expect(sql`SELECT 1 FROM ${sql.table(table)}`.execute(db.kysely)).rejects.toThrow();
  });
});
