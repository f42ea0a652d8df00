import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { PortalDatabase } from '../../../db/database';
import type { AccountMemberTable, AccountTable, UserGroupTable } from '../../../db/tables/identity.tables';

export type AccountRow = Selectable<AccountTable>;

/** Accounts, user groups and memberships. */
export function createAccountRepository(db: Kysely<PortalDatabase>) {
  return {
    async insert(row: Insertable<AccountTable>): Promise<void> {
      await db.insertInto('account').values(row).execute();
    },

    async update(accountId: string, patch: Updateable<AccountTable>): Promise<number> {
      const r = await db
        .updateTable('account')
        .set(patch)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    find: (accountId: string) =>
      db.selectFrom('account').selectAll().where('account_id', '=', accountId).executeTakeFirst(),

    findMany: (accountIds: readonly string[]) =>
      accountIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('account').selectAll().where('account_id', 'in', accountIds).execute(),

    list: () => db.selectFrom('account').selectAll().orderBy('account_id').execute(),

    /** accountId → full name of its first administrator member, for the given accounts. */
    async adminNames(accountIds: readonly string[]): Promise<Map<string, string>> {
      if (accountIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('account_member as m')
        .innerJoin('portal_user as u', 'u.id', 'm.user_id')
        .select(['m.account_id', 'u.full_name', 'u.username'])
        .where('m.account_id', 'in', accountIds)
        .where('m.member_type', '=', 'admin')
        .orderBy('m.created_at')
        .orderBy('u.id')
        .execute();
      const names = new Map<string, string>();
      for (const r of rows) if (!names.has(r.account_id)) names.set(r.account_id, r.full_name || r.username);
      return names;
    },

    findMember: (accountId: string, userId: number) =>
      db
        .selectFrom('account_member')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),

    async upsertMember(row: Insertable<AccountMemberTable>): Promise<void> {
      const { member_type, group_id } = row;
      await db
        .insertInto('account_member')
        .values(row)
        .onConflict((oc) => oc.columns(['account_id', 'user_id']).doUpdateSet({ member_type, group_id }))
        .execute();
    },

    async deleteMember(accountId: string, userId: number): Promise<number> {
      const r = await db
        .deleteFrom('account_member')
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    findGroup: (groupId: string) =>
      db.selectFrom('user_group').selectAll().where('group_id', '=', groupId).executeTakeFirst(),

    async insertGroup(row: Insertable<UserGroupTable>): Promise<void> {
      await db.insertInto('user_group').values(row).execute();
    },

    listGroups: () => db.selectFrom('user_group').selectAll().orderBy('group_id').execute(),
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
