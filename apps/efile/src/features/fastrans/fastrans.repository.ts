import type { Kysely } from 'kysely';

/** The tables of migration 002-fastrans (kept here, beside their only user). Times are ms since the epoch. */
export interface FastransTables {
  efile_fastrans_files: {
    id: string;
    owner_sub: string;
    /** The cluster user it writes as (the sweep removes its partial as this user); '' in rows of older servers. */
    owner_cun: string;
    /** Final cluster path. */
    target: string;
    size: number;
    range_size: number;
    total_ranges: number;
    /** Host path of the hidden partial file ('' for files that came whole in a tar batch). */
    partial_host: string;
    overwrite: number;
    /** 'active' (ranges arriving) or 'done' (verified and under its final name). */
    status: string;
    created_at: number;
    updated_at: number;
  };
  /** A range written whole, with the SHA-256 efile computed of its bytes while writing them (null: older rows). */
  efile_fastrans_ranges: { file_id: string; n: number; sha256: string | null };
}
export type TransferRow = FastransTables['efile_fastrans_files'];

/**
 * Fast-transfer uploads in the database, so that any efile instance can take any range, the status call of a
 * restarted client, or the finalize. One row per stored range (concurrent inserts, no shared bitmap).
 */
export function fastransRepository(anyDb: Kysely<unknown>) {
  const db = anyDb as Kysely<FastransTables>;
  return {
    async get(id: string): Promise<TransferRow | null> {
      return (
        (await db.selectFrom('efile_fastrans_files').selectAll().where('id', '=', id).executeTakeFirst()) ??
        null
      );
    },
    async getMany(ids: string[]): Promise<TransferRow[]> {
      const out: TransferRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        out.push(
          ...(await db.selectFrom('efile_fastrans_files').selectAll().where('id', 'in', part).execute()),
        );
      }
      return out;
    },
    async create(row: TransferRow) {
      await db
        .insertInto('efile_fastrans_files')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    /** Files that arrived whole (tar batch): recorded as done, so a restarted client's status call sees them. */
    async recordDoneMany(all: TransferRow[]) {
      // One row per id (a batch may name a file twice): one statement must not touch a row twice.
      const rows = [...new Map(all.map((r) => [r.id, r])).values()];
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto('efile_fastrans_files')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              status: eb.ref('excluded.status'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },
    /** Records range `n` as verified with the digest of the bytes written. */
    async addRange(id: string, n: number, sha256: string) {
      await db
        .insertInto('efile_fastrans_ranges')
        .values({ file_id: id, n, sha256 })
        .onConflict((oc) => oc.columns(['file_id', 'n']).doUpdateSet({ sha256 }))
        .execute();
    },
    /** Forgets range `n` (before its bytes are written again: a record always describes the bytes on disk). */
    async removeRange(id: string, n: number) {
      await db.deleteFrom('efile_fastrans_ranges').where('file_id', '=', id).where('n', '=', n).execute();
    },
    async rangeDigest(id: string, n: number): Promise<string | null> {
      const r = await db
        .selectFrom('efile_fastrans_ranges')
        .select('sha256')
        .where('file_id', '=', id)
        .where('n', '=', n)
        .executeTakeFirst();
      return r?.sha256 ?? null;
    },
    /** The recorded ranges of one upload, in order. */
    async digestsOf(id: string): Promise<{ n: number; sha256: string | null }[]> {
      return db
        .selectFrom('efile_fastrans_ranges')
        .select(['n', 'sha256'])
        .where('file_id', '=', id)
        .orderBy('n')
        .execute();
    },
    async forgetRangesIn(id: string, ns: number[]) {
      for (let i = 0; i < ns.length; i += 500)
        await db
          .deleteFrom('efile_fastrans_ranges')
          .where('file_id', '=', id)
          .where('n', 'in', ns.slice(i, i + 500))
          .execute();
    },
    async rangesOf(ids: string[]): Promise<Map<string, number[]>> {
      const m = new Map<string, number[]>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('efile_fastrans_ranges')
          .select(['file_id', 'n'])
          .where('file_id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) {
          if (!m.has(r.file_id)) m.set(r.file_id, []);
          m.get(r.file_id)!.push(r.n);
        }
      }
      return m;
    },
    async countRanges(id: string) {
      const r = await db
        .selectFrom('efile_fastrans_ranges')
        .select((eb) => eb.fn.countAll<number>().as('c'))
        .where('file_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(r.c);
    },
    async forgetRanges(id: string) {
      await db.deleteFrom('efile_fastrans_ranges').where('file_id', '=', id).execute();
    },
    /** The overwrite choice of the latest begin: a retry after a late name conflict may now overwrite. */
    async setOverwrite(id: string, overwrite: boolean) {
      await db
        .updateTable('efile_fastrans_files')
        .set({ overwrite: overwrite ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
    async touch(id: string, now: number) {
      await db.updateTable('efile_fastrans_files').set({ updated_at: now }).where('id', '=', id).execute();
    },
    async markDone(id: string, now: number) {
      await db
        .updateTable('efile_fastrans_files')
        .set({ status: 'done', updated_at: now })
        .where('id', '=', id)
        .execute();
      await db.deleteFrom('efile_fastrans_ranges').where('file_id', '=', id).execute();
    },
    async remove(id: string) {
      await db.deleteFrom('efile_fastrans_ranges').where('file_id', '=', id).execute();
      await db.deleteFrom('efile_fastrans_files').where('id', '=', id).execute();
    },
    async idleBefore(cutoff: number) {
      return db.selectFrom('efile_fastrans_files').selectAll().where('updated_at', '<', cutoff).execute();
    },
  };
}
export type FastransRepository = ReturnType<typeof fastransRepository>;
