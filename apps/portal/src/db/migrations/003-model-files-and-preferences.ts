import type { Kysely } from 'kysely';

/**
 * The model zoo's file view (issue 13 §3): one row per file of a model, with the sha256 computed once when the files
 * were indexed; and the user centre's preferences (issue 13 §4), kept per user so that they follow the user to
 * another browser. Schema builder only, so it runs on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_model_file')
    .addColumn('item_id', 'integer', (c) => c.notNull().references('catalog_item.id').onDelete('cascade'))
    // The path inside the model as users see it ("tokenizer/vocab.json"), '/'-separated, no leading slash.
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    // Where the bytes are, relative to the catalogue storage DATA_DIR/catalog/.
    .addColumn('stored_path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_model_file_pk', ['item_id', 'path'])
    .execute();

  await db.schema
    .createTable('user_preference')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('portal_user.id').onDelete('cascade'))
    .addColumn('language', 'varchar(16)')
    .addColumn('theme', 'varchar(32)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_preference').ifExists().execute();
  await db.schema.dropTable('catalog_model_file').ifExists().execute();
}
