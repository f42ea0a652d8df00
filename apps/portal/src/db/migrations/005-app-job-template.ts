import type { Kysely } from 'kysely';

/**
 * An application's ready job ("run this application", issue 22 §3): contracts' `AppJobTemplate` as JSON text, null
 * for an application without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalog_item').addColumn('job_template', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalog_item').dropColumn('job_template').execute();
}
