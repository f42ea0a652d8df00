import type { Kysely } from 'kysely';
import type { EfileDatabase } from '../../db/database';

export type UploadRow = EfileDatabase['efile_uploads'];

/**
 * Upload sessions and their stored chunks. One row per stored chunk: concurrent chunk requests (several
 * instances, any order) each insert their own row, so there is no read-modify-write of a shared bitmap.
 */
export function uploadRepository(db: Kysely<EfileDatabase>) {
  return {
    async get(id: string) {
      return (
        (await db.selectFrom('efile_uploads').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
      );
    },
    async create(row: UploadRow) {
      await db
        .insertInto('efile_uploads')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    async activeForTarget(sub: string, target: string) {
      return db
        .selectFrom('efile_uploads')
        .selectAll()
        .where('owner_sub', '=', sub)
        .where('target', '=', target)
        .where('status', '=', 'active')
        .execute();
    },
    /** Records a stored chunk; `now` (when given) also marks the session as alive for the sweep. */
    async addChunk(id: string, n: number, now: number | null) {
      await db
        .insertInto('efile_upload_chunks')
        .values({ upload_id: id, n })
        .onConflict((oc) => oc.columns(['upload_id', 'n']).doNothing())
        .execute();
      if (now !== null)
        await db.updateTable('efile_uploads').set({ updated_at: now }).where('id', '=', id).execute();
    },
    async hasChunk(id: string, n: number) {
      return !!(await db
        .selectFrom('efile_upload_chunks')
        .select('n')
        .where('upload_id', '=', id)
        .where('n', '=', n)
        .executeTakeFirst());
    },
    async countChunks(id: string) {
      const r = await db
        .selectFrom('efile_upload_chunks')
        .select((eb) => eb.fn.countAll<number>().as('c'))
        .where('upload_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(r.c);
    },
    async chunks(id: string) {
      const rows = await db
        .selectFrom('efile_upload_chunks')
        .select('n')
        .where('upload_id', '=', id)
        .orderBy('n')
        .execute();
      return rows.map((r) => r.n);
    },
    async markDone(id: string, now: number) {
      await db
        .updateTable('efile_uploads')
        .set({ status: 'done', updated_at: now })
        .where('id', '=', id)
        .execute();
      await db.deleteFrom('efile_upload_chunks').where('upload_id', '=', id).execute();
    },
    /** Forgets a finished session (its chunks went at markDone); an active one of the same id is left alone. */
    async removeIfDone(id: string) {
      await db.deleteFrom('efile_uploads').where('id', '=', id).where('status', '=', 'done').execute();
    },
    async remove(id: string) {
      await db.deleteFrom('efile_upload_chunks').where('upload_id', '=', id).execute();
      await db.deleteFrom('efile_uploads').where('id', '=', id).execute();
    },
    async idleBefore(cutoff: number) {
      return db.selectFrom('efile_uploads').selectAll().where('updated_at', '<', cutoff).execute();
    },
  };
}
export type UploadRepository = ReturnType<typeof uploadRepository>;
