import {
  PostgresAdapter,
  sql,
  type ExpressionBuilder,
  type ExpressionOrFactory,
  type Kysely,
  type SqlBool,
} from 'kysely';
import type { EfileDatabase } from '../../db/database';

export type ShareRow = EfileDatabase['efile_shares'];

/**
 * The rows at or under a path as two index searches: the path itself, and every path that begins with `p/`, which
 * compared by bytes sorts from `p/` up to, not including, `p0` ('0' is the byte after '/'). The root's subtree is
 * `/` up to `0`; trailing slashes are the path's own (`/a/` is `/a`).
 */
export function subtreeOf(p: string): { self: string; from: string; to: string } {
  const self = p.replace(/\/+$/, '') || '/';
  const from = self === '/' ? '/' : `${self}/`;
  return { self, from, to: `${from.slice(0, -1)}0` };
}

/**
 * SQL of shares. A renamed or moved item (or parent) does not take its shares along: spec §5 says sharing becomes
 * invalid, so callers close them with `closeUnder` (and a share checks on every access that its item is still there).
 *
 * Every query here is an index search, never a read of the whole table: better-sqlite3 answers on the one event loop
 * of the all-in-one, so a scan of a large share table held every other request (found with 60,000 shares; the old
 * `substr(path, 1, n) = 'p/'` could use no index and ran on every delete, rename and move).
 */
export function shareRepository(db: Kysely<EfileDatabase>) {
  // The subtree's range needs the bytes' order. SQLite compares text by its bytes (BINARY); PostgreSQL by the
  // column's collation, which in a database made with a language's locale ignores punctuation ('/a/x' after '/a0'),
  // so there the range is compared in "C" (the index of migration 007 is on that).
  const bytewise =
    db.getExecutor().adapter instanceof PostgresAdapter ? sql<string>`path collate "C"` : sql<string>`path`;
  const under = (p: string) => (eb: ExpressionBuilder<EfileDatabase, 'efile_shares'>) => {
    const { self, from, to } = subtreeOf(p);
    return eb.or([eb('path', '=', self), eb.and([eb(bytewise, '>=', from), eb(bytewise, '<', to)])]);
  };
  /** Every row an owner has: open, closed and expired (the index on the owner answers it). */
  const countByOwner = async (sub: string) => {
    const { n } = await db
      .selectFrom('efile_shares')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_sub', '=', sub)
      .executeTakeFirstOrThrow();
    return Number(n);
  };
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
      return { rows, total: await countByOwner(sub) };
    },
    countByOwner,
    /** Deletes up to `n` of an owner's closed or expired rows, the oldest first; how many it deleted. */
    async deleteEnded(sub: string, now: number, n: number) {
      const r = await db
        .deleteFrom('efile_shares')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('efile_shares')
            .select('id')
            .where('owner_sub', '=', sub)
            .where((w) => w.or([w('closed_at', 'is not', null), w('expires_at', '<=', now)]))
            .orderBy('created_at')
            .limit(n),
        )
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** The paths of an owner's open and valid shares (at most the per-owner limit of rows). */
    async openPathsOf(sub: string, now: number) {
      const rows = await db
        .selectFrom('efile_shares')
        .select('path')
        .where('owner_sub', '=', sub)
        .where('closed_at', 'is', null)
        .where('expires_at', '>', now)
        .execute();
      return rows.map((r) => r.path);
    },
    close: (id: string, sub: string, now: number) => closeOpen((eb) => eb.and({ id, owner_sub: sub }), now),
    closeByPath: (sub: string, p: string, now: number) =>
      closeOpen((eb) => eb.and({ owner_sub: sub, path: p }), now),
    /** Closes the open shares at or under a path, any owner's: it was deleted, renamed or moved. */
    async closeUnder(p: string, now: number) {
      await closeOpen(under(p), now);
    },
  };
}
export type ShareRepository = ReturnType<typeof shareRepository>;
