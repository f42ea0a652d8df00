import { sql, type ExpressionBuilder, type ExpressionOrFactory, type Kysely, type SqlBool } from 'kysely';
import type { EfileDatabase } from '../../db/database';

export type ShareRow = EfileDatabase['efile_shares'];

/**
 * SQL of shares. A renamed or moved item (or parent) does not take its shares along: spec §5 says sharing becomes
 * invalid, so callers close them with `closeUnder` (and a share checks on every access that its item is still there).
 */
export function shareRepository(db: Kysely<EfileDatabase>) {
  const under = (p: string) => (eb: ExpressionBuilder<EfileDatabase, 'efile_shares'>) =>
    eb.or([eb('path', '=', p), eb(sql`substr(path, 1, ${p.length + 1})`, '=', `${p}/`)]);
  /** Closes the open shares `which` selects; how many it closed. */
  const closeOpen = async (
    which: ExpressionOrFactory<EfileDatabase, 'efile_shares', SqlBool>,
    now: number,
  ) => {
    const r = await db
      .updateTable('efile_shares')
      .set({ closed_at: now })
      .where(which)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  };
  return {
    async insert(row: ShareRow) {
      await db.insertInto('efile_shares').values(row).execute();
    },
    async get(id: string) {
      return (
        (await db.selectFrom('efile_shares').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
      );
    },
    async listByOwner(sub: string, offset: number, limit: number) {
      const rows = await db
        .selectFrom('efile_shares')
        .selectAll()
        .where('owner_sub', '=', sub)
        .orderBy('created_at', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
      const { n } = await db
        .selectFrom('efile_shares')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_sub', '=', sub)
        .executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },
    close: (id: string, sub: string, now: number) => closeOpen((eb) => eb.and({ id, owner_sub: sub }), now),
    closeByPath: (sub: string, p: string, now: number) =>
      closeOpen((eb) => eb.and({ owner_sub: sub, path: p }), now),
    /** Open shares at or under a path (any owner: a shared folder may be granted to several users). */
    async openUnder(p: string, now: number) {
      return db
        .selectFrom('efile_shares')
        .selectAll()
        .where(under(p))
        .where('closed_at', 'is', null)
        .where('expires_at', '>', now)
        .execute();
    },
    /** Closes the open shares at or under a path: it was deleted, renamed or moved. */
    async closeUnder(p: string, now: number) {
      await closeOpen(under(p), now);
    },
  };
}
export type ShareRepository = ReturnType<typeof shareRepository>;
