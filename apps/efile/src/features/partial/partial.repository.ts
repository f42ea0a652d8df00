import type { Kysely } from 'kysely';
import type { EfileDatabase } from '../../db/database';

export type PartialRow = EfileDatabase['efile_partials'];
/** 'chunk': the browser's chunk upload; 'range': a fast-transfer file; 'tar': a tar extraction's staging folder. */
export type PartialKind = 'chunk' | 'range' | 'tar';

/**
 * The partial-file sessions of both front doors and their stored pieces (chunks or verified ranges), in the
 * database so that any efile instance can take any piece, a restarted client's status call or the finalize. One row
 * per stored piece: concurrent requests (several instances, any order) each insert their own row, so there is no
 * read-modify-write of a shared bitmap. Every look-up by id names its kind: an id of one front door is never
 * served by the other.
 */
const DONE_ROWS_PER_STATEMENT = 500;

export function partialRepository(db: Kysely<EfileDatabase>) {
  return {
    async get(kind: PartialKind, id: string): Promise<PartialRow | null> {
      return (
        (await db
          .selectFrom('efile_partials')
          .selectAll()
          .where('id', '=', id)
          .where('kind', '=', kind)
          .executeTakeFirst()) ?? null
      );
    },
    async getMany(kind: PartialKind, ids: string[]): Promise<PartialRow[]> {
      const out: PartialRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        out.push(
          ...(await db
            .selectFrom('efile_partials')
            .selectAll()
            .where('id', 'in', part)
            .where('kind', '=', kind)
            .execute()),
        );
      }
      return out;
    },
    async create(row: PartialRow) {
      await db
        .insertInto('efile_partials')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    /** Files that arrived whole (tar batch): recorded as done, so a restarted client's status call sees them. */
    async recordDoneMany(all: PartialRow[]) {
      // One row per id (a batch may name a file twice): one statement must not touch a row twice.
      const rows = [...new Map(all.map((r) => [r.id, r])).values()];
      // A client's batch (500 files at most) in one statement: 10,000 rows took 92-158 ms in statements of 500
      // against 132-199 ms in statements of 200 (SQLite). 500 rows are 7,000 parameters, within SQLite's 32,766
      // and PostgreSQL's 65,535.
      for (let i = 0; i < rows.length; i += DONE_ROWS_PER_STATEMENT) {
        await db
          .insertInto('efile_partials')
          .values(rows.slice(i, i + DONE_ROWS_PER_STATEMENT))
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              status: eb.ref('excluded.status'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },
    async activeForTarget(kind: PartialKind, sub: string, target: string) {
      return db
        .selectFrom('efile_partials')
        .selectAll()
        .where('owner_sub', '=', sub)
        .where('target', '=', target)
        .where('kind', '=', kind)
        .where('status', '=', 'active')
        .execute();
    },
    /**
     * Records a stored piece (a range with the digest of the bytes written; a chunk with none); `now` (when given)
     * also marks the session as alive for the sweep.
     */
    async addPiece(id: string, n: number, sha256: string | null) {
      await db
        .insertInto('efile_partial_pieces')
        .values({ session_id: id, n, sha256 })
        .onConflict((oc) =>
          sha256 === null
            ? oc.columns(['session_id', 'n']).doNothing()
            : oc.columns(['session_id', 'n']).doUpdateSet({ sha256 }),
        )
        .execute();
    },
    /**
     * Records a chunk only while its session is the one it was written for (`generation`: the row's created_at):
     * one statement, so a session ended, or ended and begun anew under the same id, between the chunk's look at
     * its session and this record cannot take a piece whose bytes its partial does not hold. False when it is not
     * that session any more (a chunk already recorded counts as recorded).
     */
    async addChunkOf(id: string, generation: number, n: number): Promise<boolean> {
      const r = await db
        .insertInto('efile_partial_pieces')
        .columns(['session_id', 'n', 'sha256'])
        .expression(
          db
            .selectFrom('efile_partials')
            .select((eb) => [eb.ref('id').as('session_id'), eb.val(n).as('n'), eb.val(null).as('sha256')])
            .where('id', '=', id)
            .where('created_at', '=', generation),
        )
        .onConflict((oc) => oc.columns(['session_id', 'n']).doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) return true;
      return !!(await db
        .selectFrom('efile_partials')
        .select('id')
        .where('id', '=', id)
        .where('created_at', '=', generation)
        .executeTakeFirst());
    },
    async hasPiece(id: string, n: number) {
      return !!(await db
        .selectFrom('efile_partial_pieces')
        .select('n')
        .where('session_id', '=', id)
        .where('n', '=', n)
        .executeTakeFirst());
    },
    /** Forgets piece `n` (before a range's bytes are written again: a record always describes the bytes on disk). */
    async removePiece(id: string, n: number) {
      await db.deleteFrom('efile_partial_pieces').where('session_id', '=', id).where('n', '=', n).execute();
    },
    async pieceDigest(id: string, n: number): Promise<string | null> {
      const r = await db
        .selectFrom('efile_partial_pieces')
        .select('sha256')
        .where('session_id', '=', id)
        .where('n', '=', n)
        .executeTakeFirst();
      return r?.sha256 ?? null;
    },
    /** The recorded pieces of one session with their digests, in order. */
    async digestsOf(id: string): Promise<{ n: number; sha256: string | null }[]> {
      return db
        .selectFrom('efile_partial_pieces')
        .select(['n', 'sha256'])
        .where('session_id', '=', id)
        .orderBy('n')
        .execute();
    },
    /** The numbers of the stored pieces of one session, in order. */
    async pieces(id: string): Promise<number[]> {
      const rows = await db
        .selectFrom('efile_partial_pieces')
        .select('n')
        .where('session_id', '=', id)
        .orderBy('n')
        .execute();
      return rows.map((r) => r.n);
    },
    async forgetPiecesIn(id: string, ns: number[]) {
      for (let i = 0; i < ns.length; i += 500)
        await db
          .deleteFrom('efile_partial_pieces')
          .where('session_id', '=', id)
          .where('n', 'in', ns.slice(i, i + 500))
          .execute();
    },
    async piecesOf(ids: string[]): Promise<Map<string, number[]>> {
      const m = new Map<string, number[]>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('efile_partial_pieces')
          .select(['session_id', 'n'])
          .where('session_id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) {
          if (!m.has(r.session_id)) m.set(r.session_id, []);
          m.get(r.session_id)!.push(r.n);
        }
      }
      return m;
    },
    async countPieces(id: string) {
      const r = await db
        .selectFrom('efile_partial_pieces')
        .select((eb) => eb.fn.countAll<number>().as('c'))
        .where('session_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(r.c);
    },
    async forgetPieces(id: string) {
      await db.deleteFrom('efile_partial_pieces').where('session_id', '=', id).execute();
    },
    /** The overwrite choice of the latest begin: a retry after a late name conflict may now overwrite. */
    async setOverwrite(id: string, overwrite: boolean) {
      await db
        .updateTable('efile_partials')
        .set({ overwrite: overwrite ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
    async touch(id: string, now: number) {
      await db.updateTable('efile_partials').set({ updated_at: now }).where('id', '=', id).execute();
    },
    async markDone(id: string, now: number) {
      await db
        .updateTable('efile_partials')
        .set({ status: 'done', updated_at: now })
        .where('id', '=', id)
        .execute();
      await db.deleteFrom('efile_partial_pieces').where('session_id', '=', id).execute();
    },
    /** Forgets a finished session (its pieces went at markDone); an active one of the same id is left alone. */
    async removeIfDone(id: string) {
      await db.deleteFrom('efile_partials').where('id', '=', id).where('status', '=', 'done').execute();
    },
    async remove(id: string) {
      await db.deleteFrom('efile_partial_pieces').where('session_id', '=', id).execute();
      await db.deleteFrom('efile_partials').where('id', '=', id).execute();
    },
    /** How many upload sessions (chunk and range) `sub` has open, counted up to `limit` at most. */
    async countOpen(sub: string, limit: number): Promise<number> {
      const open = db
        .selectFrom('efile_partials')
        .select('id')
        .where('owner_sub', '=', sub)
        .where('status', '=', 'active')
        .where('kind', 'in', ['chunk', 'range'])
        .limit(limit)
        .as('open');
      const r = await db
        .selectFrom(open)
        .select((eb) => eb.fn.countAll<number | string>().as('c'))
        .executeTakeFirstOrThrow();
      return Number(r.c);
    },
    /** Sessions of every kind not marked alive since `cutoff` (the sweep). */
    async idleBefore(cutoff: number) {
      return db.selectFrom('efile_partials').selectAll().where('updated_at', '<', cutoff).execute();
    },
  };
}
export type PartialRepository = ReturnType<typeof partialRepository>;
