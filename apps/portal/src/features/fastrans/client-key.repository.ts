import type { Kysely } from 'kysely';
import type { PortalDatabase } from '../../db/database';

/** The only SQL of the users' fast-transfer client keys: the generation each key is derived with. */
export function createClientKeyRepository(db: Kysely<PortalDatabase>) {
  return {
    /** The user's key generation: 0 until the first revocation. */
    async generationOf(userId: number): Promise<number> {
      const row = await db
        .selectFrom('fastrans_client_key')
        .select('generation')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? Number(row.generation) : 0;
    },

    /**
     * Moves the user's key on by one and answers the new generation. One statement: revocations at once from two
     * pages (or two scaled-out portals) each move it, and none is lost.
     */
    async advance(userId: number, now: number): Promise<number> {
      const row = await db
        .insertInto('fastrans_client_key')
        .values({ user_id: userId, generation: 1, revoked_at: now })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            generation: eb('fastrans_client_key.generation', '+', 1),
            revoked_at: now,
          })),
        )
        .returning('generation')
        .executeTakeFirstOrThrow();
      return Number(row.generation);
    },
  };
}

export type ClientKeyRepository = ReturnType<typeof createClientKeyRepository>;
