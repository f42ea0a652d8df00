import type { Kysely } from 'kysely';
import type { PortalDatabase } from '../../../db/database';
import { createAccountRepository } from './account.repository';
import { createClusterRepository } from './cluster.repository';
import { createSessionRepository } from './session.repository';
import { createUserRepository } from './user.repository';

/** The identity domain's repositories, on the database or on one transaction of it. */
export function createIdentityRepositories(db: Kysely<PortalDatabase>) {
  return {
    users: createUserRepository(db),
    clusters: createClusterRepository(db),
    accounts: createAccountRepository(db),
    sessions: createSessionRepository(db),
  };
}

export type IdentityRepositories = ReturnType<typeof createIdentityRepositories>;

/**
 * Runs `work` in one database transaction, with repositories bound to it: a service that writes twice (a user's
 * fields and their sessions, an account created or changed field by field) writes all or nothing. Slow work (a
 * password hash) belongs before the call: SQLite has one connection, held for the whole transaction.
 */
export type InTransaction = <T>(work: (repos: IdentityRepositories) => Promise<T>) => Promise<T>;

export function transactionsOf(db: Kysely<PortalDatabase>): InTransaction {
  return (work) => db.transaction().execute((trx) => work(createIdentityRepositories(trx)));
}
