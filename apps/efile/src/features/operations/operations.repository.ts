import type { Kysely } from 'kysely';
import type { EfileDatabase } from '../../db/database';

export type OperationRow = EfileDatabase['efile_operations'];

export function operationsRepository(db: Kysely<EfileDatabase>) {
  return {
    async insert(row: Omit<OperationRow, 'cancel_requested'>) {
      await db.insertInto('efile_operations').values(row).execute();
    },
    async get(id: string, sub: string) {
      return (
        (await db
          .selectFrom('efile_operations')
          .selectAll()
          .where('id', '=', id)
          .where('owner_sub', '=', sub)
          .executeTakeFirst()) ?? null
      );
    },
    async progress(
      id: string,
      p: Partial<
        Pick<
          OperationRow,
          'bytes_done' | 'bytes_total' | 'files_done' | 'files_total' | 'status' | 'error_code'
        >
      >,
      now: number,
    ) {
      await db
        .updateTable('efile_operations')
        .set({ ...p, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async cancelRequested(id: string) {
      const r = await db
        .selectFrom('efile_operations')
        .select('cancel_requested')
        .where('id', '=', id)
        .executeTakeFirst();
      return !!r && Number(r.cancel_requested) === 1;
    },
    async requestCancel(id: string, sub: string) {
      const r = await db
        .updateTable('efile_operations')
        .set({ cancel_requested: 1 })
        .where('id', '=', id)
        .where('owner_sub', '=', sub)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}
export type OperationsRepository = ReturnType<typeof operationsRepository>;
