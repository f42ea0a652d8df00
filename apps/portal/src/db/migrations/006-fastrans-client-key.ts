import type { Kysely } from 'kysely';

/**
 * The generation of each user's fast-transfer client key (docs/FASTRANS.md "Security"): a user who revokes the key
 * moves it on, and the key every package downloaded before carries no longer proves that user's client. A user with
 * no row has generation 0, the key of the packages downloaded before this table existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fastrans_client_key')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('portal_user.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fastrans_client_key').ifExists().execute();
}
