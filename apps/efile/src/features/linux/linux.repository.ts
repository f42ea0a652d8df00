import type { Kysely } from 'kysely';
import type { EfileDatabase } from '../../db/database';

export type ScopedTokenRow = EfileDatabase['efile_scoped_tokens'];

/** Scoped tokens of the generated Linux commands, stored by hash (any instance can verify them). */
export function linuxRepository(db: Kysely<EfileDatabase>) {
  return {
    async insert(row: ScopedTokenRow) {
      await db.insertInto('efile_scoped_tokens').values(row).execute();
    },
    async get(id: string) {
      return (
        (await db.selectFrom('efile_scoped_tokens').selectAll().where('id', '=', id).executeTakeFirst()) ??
        null
      );
    },
    async purgeExpired(now: number) {
      await db.deleteFrom('efile_scoped_tokens').where('expires_at', '<', now).execute();
    },
  };
}
export type LinuxRepository = ReturnType<typeof linuxRepository>;
