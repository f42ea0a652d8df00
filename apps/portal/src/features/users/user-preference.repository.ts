import type { Kysely } from 'kysely';
import type { PortalDatabase } from '../../db/database';
import type { UserPreferenceTable } from '../../db/tables/user-preference.tables';

/** The only SQL of user preferences. */
export function createUserPreferenceRepository(db: Kysely<PortalDatabase>) {
  return {
    find: (userId: number) =>
      db.selectFrom('user_preference').selectAll().where('user_id', '=', userId).executeTakeFirst(),

    /** Sets the given columns, creating the row on first use; one statement, so parallel saves cannot collide. */
    async upsert(
      userId: number,
      patch: Partial<Pick<UserPreferenceTable, 'language' | 'theme' | 'dashboard_entries'>>,
      now: number,
    ): Promise<void> {
      await db
        .insertInto('user_preference')
        .values({
          user_id: userId,
          language: null,
          theme: null,
          dashboard_entries: null,
          ...patch,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...patch, updated_at: now }))
        .execute();
    },
  };
}

export type UserPreferenceRepository = ReturnType<typeof createUserPreferenceRepository>;
