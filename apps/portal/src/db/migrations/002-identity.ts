import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Users, clusters and their params, accounts, user groups, memberships, compute users, shared storage paths and
 * sessions (spec §3). Schema builder only, so it runs on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Database-assigned ids: serial on PostgreSQL, INTEGER PRIMARY KEY AUTOINCREMENT on SQLite.
  const idColumn = <T extends string, C extends string>(t: CreateTableBuilder<T, C>) =>
    postgres
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  await db.schema
    .createTable('portal_user')
    .$call(idColumn)
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('full_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('oidc_issuer', 'varchar(1024)')
    .addColumn('oidc_subject', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('portal_user_oidc')
    .on('portal_user')
    .columns(['oidc_issuer', 'oidc_subject'])
    .unique()
    .execute();

  await db.schema
    .createTable('cluster')
    .addColumn('cluster_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('center_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('center_name_en', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('cluster_param')
    .addColumn('cluster_id', 'varchar(32)', (c) =>
      c.notNull().references('cluster.cluster_id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cluster_param_pk', ['cluster_id', 'name'])
    .execute();

  await db.schema
    .createTable('account')
    .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Normal'))
    .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('end_use_time', 'bigint')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_group')
    .addColumn('group_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('account_member')
    .addColumn('account_id', 'varchar(64)', (c) =>
      c.notNull().references('account.account_id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('portal_user.id').onDelete('cascade'))
    .addColumn('member_type', 'varchar(16)', (c) => c.notNull().defaultTo('member'))
    .addColumn('group_id', 'varchar(64)', (c) => c.references('user_group.group_id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_member_pk', ['account_id', 'user_id'])
    .execute();
  await db.schema.createIndex('account_member_user').on('account_member').column('user_id').execute();

  await db.schema
    .createTable('compute_user')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('portal_user.id').onDelete('cascade'))
    .addColumn('cluster_id', 'varchar(32)', (c) =>
      c.notNull().references('cluster.cluster_id').onDelete('cascade'),
    )
    .addColumn('cluster_user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('home_path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.references('account.account_id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('compute_user_pk', ['user_id', 'cluster_id'])
    .execute();
  // One POSIX user of a cluster belongs to one portal user (spec §8 601xxx "already linked by someone").
  await db.schema
    .createIndex('compute_user_name')
    .on('compute_user')
    .columns(['cluster_id', 'cluster_user_name'])
    .unique()
    .execute();

  await db.schema
    .createTable('storage_path')
    .$call(idColumn)
    .addColumn('cluster_id', 'varchar(32)', (c) =>
      c.notNull().references('cluster.cluster_id').onDelete('cascade'),
    )
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('portal_user.id').onDelete('cascade'))
    .addColumn('group_id', 'varchar(64)', (c) => c.references('user_group.group_id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('storage_path_cluster').on('storage_path').column('cluster_id').execute();

  await db.schema
    .createTable('portal_session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('portal_user.id').onDelete('cascade'))
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('auth_method', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('portal_session_user').on('portal_session').column('user_id').execute();
  await db.schema.createIndex('portal_session_expires').on('portal_session').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'portal_session',
    'storage_path',
    'compute_user',
    'account_member',
    'user_group',
    'account',
    'cluster_param',
    'cluster',
    'portal_user',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
