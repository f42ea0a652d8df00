import type { Kysely } from 'kysely';

/** The Dashboard's quick entries, kept with the user's other preferences (issue 22 §4): JSON text of feature ids. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preference').addColumn('dashboard_entries', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preference').dropColumn('dashboard_entries').execute();
}
