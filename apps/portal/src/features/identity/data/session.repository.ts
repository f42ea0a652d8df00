import type { Insertable, Kysely, Selectable } from 'kysely';
import type { PortalDatabase } from '../../../db/database';
import type { PortalSessionTable } from '../../../db/tables/identity.tables';

export type SessionRow = Selectable<PortalSessionTable>;

/** Login sessions, kept in the database so they survive a restart and are shared by every portal instance. */
export function createSessionRepository(db: Kysely<PortalDatabase>) {
  return {
    async insert(row: Insertable<PortalSessionTable>): Promise<void> {
      await db.insertInto('portal_session').values(row).execute();
    },

    find: (id: string) => db.selectFrom('portal_session').selectAll().where('id', '=', id).executeTakeFirst(),

    async touch(id: string, at: number): Promise<void> {
      await db.updateTable('portal_session').set({ last_seen_at: at }).where('id', '=', id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('portal_session').where('id', '=', id).execute();
    },

    async deleteForUser(userId: number): Promise<number> {
      const r = await db.deleteFrom('portal_session').where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Removes sessions past their absolute end or idle for longer than `idleMs`. */
    async deleteExpired(now: number, idleMs: number): Promise<number> {
      const r = await db
        .deleteFrom('portal_session')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)]))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
