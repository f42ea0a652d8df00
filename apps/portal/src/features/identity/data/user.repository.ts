import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { PortalDatabase } from '../../../db/database';
import type { PortalUserTable } from '../../../db/tables/identity.tables';

export type UserRow = Selectable<PortalUserTable>;

/** Portal users. Usernames are stored as given and looked up case-sensitively (POSIX names are). */
export function createUserRepository(db: Kysely<PortalDatabase>) {
  return {
    findById: (id: number) =>
      db.selectFrom('portal_user').selectAll().where('id', '=', id).executeTakeFirst(),

    findByUsername: (username: string) =>
      db.selectFrom('portal_user').selectAll().where('username', '=', username).executeTakeFirst(),

    findByOidc: (issuer: string, subject: string) =>
      db
        .selectFrom('portal_user')
        .selectAll()
        .where('oidc_issuer', '=', issuer)
        .where('oidc_subject', '=', subject)
        .executeTakeFirst(),

    /**
     * Adds a user unless the name (or the SSO subject) is taken: null then. The database's unique keys decide, so two
     * requests for one name at once make one user and one "taken", never a failed insert.
     */
    async insertIfFree(row: Insertable<PortalUserTable>): Promise<number | null> {
      const added = await db
        .insertInto('portal_user')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return added?.id ?? null;
    },

    async update(id: number, patch: Updateable<PortalUserTable>): Promise<void> {
      await db.updateTable('portal_user').set(patch).where('id', '=', id).execute();
    },

    list: () => db.selectFrom('portal_user').selectAll().orderBy('id').execute(),

    async count(): Promise<number> {
      const { n } = await db
        .selectFrom('portal_user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
