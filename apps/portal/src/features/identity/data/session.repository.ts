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

    /** True when a row was there to delete. */
    async delete(id: string): Promise<boolean> {
      const r = await db.deleteFrom('portal_session').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** A user's sessions, the most recently used first. */
    listForUser: (userId: number) =>
      db
        .selectFrom('portal_session')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('last_seen_at', 'desc')
        .execute(),

    /** Deletes a user's sessions but `keep` (if given) and returns the ids deleted. */
    async deleteForUser(userId: number, keep?: string): Promise<string[]> {
      let q = db.deleteFrom('portal_session').where('user_id', '=', userId);
      if (keep) q = q.where('id', '!=', keep);
      return (await q.returning('id').execute()).map((r) => r.id);
    },

    /** Removes sessions past their absolute end or idle for longer than `idleMs`; returns their ids. */
    async deleteExpired(now: number, idleMs: number): Promise<string[]> {
      const rows = await db
        .deleteFrom('portal_session')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)]))
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
