import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/** Written once with Kysely's schema builder for SQLite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '001-efile': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('efile_shares')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_sub', 'varchar(128)', (c) => c.notNull())
        .addColumn('owner_cun', 'varchar(128)', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_dir', 'integer', (c) => c.notNull())
        .addColumn('dev_ino', 'varchar(64)', (c) => c.notNull())
        .addColumn('code', 'varchar(64)', (c) => c.notNull())
        .addColumn('roots', 'text', (c) => c.notNull())
        .addColumn('valid_days', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('efile_shares_owner')
        .on('efile_shares')
        .columns(['owner_sub', 'created_at'])
        .execute();
      await db.schema.createIndex('efile_shares_path').on('efile_shares').column('path').execute();

      await db.schema
        .createTable('efile_uploads')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_sub', 'varchar(128)', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('total_size', 'bigint', (c) => c.notNull())
        .addColumn('chunk_size', 'bigint', (c) => c.notNull())
        .addColumn('total_chunks', 'integer', (c) => c.notNull())
        .addColumn('partial_host', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('efile_uploads_owner_target')
        .on('efile_uploads')
        .columns(['owner_sub', 'target'])
        .execute();
      await db.schema.createIndex('efile_uploads_updated').on('efile_uploads').column('updated_at').execute();
      await db.schema
        .createTable('efile_upload_chunks')
        .addColumn('upload_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('efile_upload_chunks_pk', ['upload_id', 'n'])
        .execute();

      await db.schema
        .createTable('efile_operations')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_sub', 'varchar(128)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('bytes_done', 'bigint', (c) => c.notNull())
        .addColumn('bytes_total', 'bigint', (c) => c.notNull())
        .addColumn('files_done', 'integer', (c) => c.notNull())
        .addColumn('files_total', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'varchar(32)')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('efile_scoped_tokens')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_sub', 'varchar(128)', (c) => c.notNull())
        .addColumn('cun', 'varchar(128)', (c) => c.notNull())
        .addColumn('direction', 'varchar(8)', (c) => c.notNull())
        .addColumn('paths', 'text', (c) => c.notNull())
        .addColumn('roots', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  /** Fast transfer (issue 11): one row per file of a client upload; one row per stored range of an unfinished one. */
  '002-fastrans': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('efile_fastrans_files')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('owner_sub', 'varchar(128)', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('range_size', 'bigint', (c) => c.notNull())
        .addColumn('total_ranges', 'integer', (c) => c.notNull())
        .addColumn('partial_host', 'text', (c) => c.notNull())
        .addColumn('overwrite', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('efile_fastrans_files_updated')
        .on('efile_fastrans_files')
        .column('updated_at')
        .execute();
      await db.schema
        .createTable('efile_fastrans_ranges')
        .addColumn('file_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('efile_fastrans_ranges_pk', ['file_id', 'n'])
        .execute();
    },
  },
  '003-upload-owner': {
    // The cluster user an upload writes as: the sweep of abandoned partials removes them as that user (through their
    // worker in unix mode, where the service itself may not touch their folders). Older rows have ''.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('efile_uploads')
        .addColumn('owner_cun', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  '004-fastrans-range-sha256': {
    // The SHA-256 efile computed of each fast-transfer range while writing it: finalize checks the client's hash of
    // these instead of reading the file again. Rows of older servers have null (sent again when finalize needs them).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('efile_fastrans_ranges').addColumn('sha256', 'varchar(64)').execute();
    },
  },
  '005-fastrans-owner': {
    // The cluster user a fast-transfer upload writes as: the sweep removes abandoned partials as that user (through
    // their worker in unix mode, where the service itself may not touch their folders). Older rows have ''.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('efile_fastrans_files')
        .addColumn('owner_cun', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  '006-partials': {
    // One table of partial-file sessions for both front doors (issue 24 §2): the browser's chunk uploads ('chunk',
    // from efile_uploads) and fast transfer's ranges ('range', from efile_fastrans_files), and a tar extraction's
    // staging folder while it runs ('tar', new: a crash leaves the row, which tells the sweep where to look). One
    // piece table holds a session's stored chunks or verified ranges (a chunk has no digest). The rows move with
    // their ids, so sessions in progress go on after the upgrade, and their partials keep their names.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('efile_partials')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('owner_sub', 'varchar(128)', (c) => c.notNull())
        .addColumn('owner_cun', 'varchar(128)', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('piece_size', 'bigint', (c) => c.notNull())
        .addColumn('total_pieces', 'integer', (c) => c.notNull())
        .addColumn('partial_host', 'text', (c) => c.notNull())
        .addColumn('overwrite', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('efile_partials_owner_target')
        .on('efile_partials')
        .columns(['owner_sub', 'target'])
        .execute();
      await db.schema
        .createIndex('efile_partials_updated')
        .on('efile_partials')
        .column('updated_at')
        .execute();
      await db.schema
        .createTable('efile_partial_pieces')
        .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)')
        .addPrimaryKeyConstraint('efile_partial_pieces_pk', ['session_id', 'n'])
        .execute();
      // Plain SQL that SQLite and PostgreSQL both read the same way.
      await sql`
        INSERT INTO efile_partials (id, kind, owner_sub, owner_cun, target, identifier, size, piece_size,
          total_pieces, partial_host, overwrite, status, created_at, updated_at)
        SELECT id, 'chunk', owner_sub, owner_cun, target, identifier, total_size, chunk_size, total_chunks,
          partial_host, 0, status, created_at, updated_at
        FROM efile_uploads`.execute(db);
      await sql`
        INSERT INTO efile_partials (id, kind, owner_sub, owner_cun, target, identifier, size, piece_size,
          total_pieces, partial_host, overwrite, status, created_at, updated_at)
        SELECT id, 'range', owner_sub, owner_cun, target, '', size, range_size, total_ranges, partial_host,
          overwrite, status, created_at, updated_at
        FROM efile_fastrans_files`.execute(db);
      await sql`
        INSERT INTO efile_partial_pieces (session_id, n, sha256)
        SELECT upload_id, n, NULL FROM efile_upload_chunks`.execute(db);
      await sql`
        INSERT INTO efile_partial_pieces (session_id, n, sha256)
        SELECT file_id, n, sha256 FROM efile_fastrans_ranges`.execute(db);
      await db.schema.dropTable('efile_upload_chunks').execute();
      await db.schema.dropTable('efile_uploads').execute();
      await db.schema.dropTable('efile_fastrans_ranges').execute();
      await db.schema.dropTable('efile_fastrans_files').execute();
    },
  },
  '007-share-path-bytes': {
    // The index the share repository's subtree ranges need on PostgreSQL, where they compare the path in the "C"
    // collation (by bytes; share.repository.ts says why) and the path index of 001, in the database's collation,
    // cannot serve them: without it every delete, rename and move read the whole share table (found from outside,
    // 2026-12-01). SQLite's index of 001 already orders by bytes.
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`CREATE INDEX efile_shares_path_bytes ON efile_shares (path COLLATE "C")`.execute(db);
    },
  },
};
