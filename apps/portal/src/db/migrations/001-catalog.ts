import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The three catalogues (image centre, model zoo, application centre) in one item table with labels, categories and
 * a per-kind version row. Schema builder only, so it runs on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('catalog_item')
    // PostgreSQL needs a serial column for database-assigned ids; SQLite an INTEGER PRIMARY KEY AUTOINCREMENT.
    .$call((t) =>
      postgres
        ? t.addColumn('id', 'serial', (c) => c.primaryKey())
        : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('tag', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'varchar(1024)')
    // Milliseconds since the epoch do not fit a 32-bit integer.
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('accelerator_type', 'varchar(50)')
    .addColumn('image_name', 'varchar(200)')
    .addColumn('pull_command', 'varchar(1024)')
    .addColumn('desc_file_path', 'varchar(1024)')
    .addColumn('url', 'varchar(1024)')
    .execute();
  await db.schema
    .createIndex('catalog_item_kind_created')
    .on('catalog_item')
    .columns(['kind', 'created_at'])
    .execute();
  // The detail route /image/{acceleratorType}/{imageName} names an image by these two.
  await db.schema
    .createIndex('catalog_item_image_name')
    .on('catalog_item')
    .columns(['kind', 'accelerator_type', 'image_name'])
    .unique()
    .execute();

  await db.schema
    .createTable('catalog_label_group')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(100)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('label_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('catalog_label_group_pk', ['kind', 'value'])
    .execute();
  await db.schema
    .createTable('catalog_label')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(100)', (c) => c.notNull())
    .addColumn('label_group', 'varchar(100)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('label_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('catalog_label_pk', ['kind', 'value'])
    .execute();
  await db.schema
    .createTable('catalog_category')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(100)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('label_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('catalog_category_pk', ['kind', 'value'])
    .execute();
  await db.schema
    .createTable('catalog_item_label')
    .addColumn('item_id', 'integer', (c) => c.notNull().references('catalog_item.id').onDelete('cascade'))
    .addColumn('label_value', 'varchar(100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_item_label_pk', ['item_id', 'label_value'])
    .execute();
  await db.schema
    .createIndex('catalog_item_label_value')
    .on('catalog_item_label')
    .column('label_value')
    .execute();
  await db.schema
    .createTable('catalog_version')
    .addColumn('kind', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('counts_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'catalog_version',
    'catalog_item_label',
    'catalog_category',
    'catalog_label',
    'catalog_label_group',
    'catalog_item',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
