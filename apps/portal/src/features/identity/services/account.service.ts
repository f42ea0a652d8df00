import {
  CommonCodes,
  PortalCodes,
  type AccountAlert,
  type AccountStatus,
  type MemberType,
  type UserAccount,
} from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { ClusterRepository } from '../data/cluster.repository';
import { sortClusters } from '../data/cluster.model';
import type { UserRepository } from '../data/user.repository';
import type { AccountRepository } from '../data/account.repository';
import type { InTransaction } from '../data/repositories';
import { alertFor, toAccountDetail, toCents } from '../data/account.model';
import { PortalText } from '../../../messages';

const ACCOUNT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export interface AccountServiceDeps {
  accounts: AccountRepository;
  clusters: ClusterRepository;
  users: UserRepository;
  transaction: InTransaction;
  now: () => number;
}

export interface NewAccount {
  accountId: string;
  name: string;
  status?: AccountStatus;
  balance?: number;
  endUseTime?: number | null;
}

/** The fields `save` changes on an existing account; absent ones stay. */
export interface AccountPatch {
  name?: string;
  status?: AccountStatus;
  balance?: number;
  endUseTime?: number | null;
}

/** Accounts, user groups and memberships; the user's accounts and their alerts (spec §3, §4, §9). */
export function createAccountService({ accounts, clusters, users, transaction, now }: AccountServiceDeps) {
  const mustFind = async (accountId: string) => {
    const row = await accounts.find(accountId);
    if (!row) throw new AppError(PortalCodes.notFound, PortalText.noAccount(accountId));
    return row;
  };
  const mustFindUser = async (username: string) => {
    const user = await users.findByUsername(username);
    if (!user) throw new AppError(PortalCodes.notFound, PortalText.noUserNamed(username));
    return user;
  };
  const checkBalance = (yuan: number) => {
    if (!Number.isFinite(yuan) || Math.abs(yuan) > 1e12)
      throw new AppError(CommonCodes.invalidInput, PortalText.balanceInvalid);
  };

  const insert = async (repo: AccountRepository, input: NewAccount) => {
    if (!ACCOUNT_ID.test(input.accountId)) {
      throw new AppError(CommonCodes.invalidInput, PortalText.accountIdInvalid);
    }
    if (!input.name.trim()) throw new AppError(CommonCodes.incompleteParams, PortalText.accountNameRequired);
    if (await repo.find(input.accountId)) {
      throw new AppError(CommonCodes.invalidInput, PortalText.accountExists(input.accountId), {
        status: 409,
      });
    }
    checkBalance(input.balance ?? 0);
    await repo.insert({
      account_id: input.accountId,
      name: input.name.trim(),
      status: input.status ?? 'Normal',
      balance_cents: toCents(input.balance ?? 0),
      end_use_time: input.endUseTime ?? null,
      create_time: now(),
    });
  };

  const service = {
    async add(input: NewAccount) {
      await insert(accounts, input);
    },

    /**
     * Creates the account when it does not exist (the name is required then), else changes the given fields: in
     * one transaction, so a refused field leaves the account as it was (the admin page and `account set`).
     */
    async save(input: AccountPatch & { accountId: string }) {
      const { accountId, name, status, balance, endUseTime } = input;
      await transaction(async (repos) => {
        if (!(await repos.accounts.find(accountId))) {
          await insert(repos.accounts, { accountId, name: name ?? '', status, balance, endUseTime });
          return;
        }
        if (name !== undefined && !name.trim())
          throw new AppError(CommonCodes.incompleteParams, PortalText.accountNameRequired);
        if (balance !== undefined) checkBalance(balance);
        const patch = {
          ...(name !== undefined ? { name: name.trim() } : {}),
          ...(status ? { status } : {}),
          ...(balance !== undefined ? { balance_cents: toCents(balance) } : {}),
          ...(endUseTime !== undefined ? { end_use_time: endUseTime } : {}),
        };
        if (Object.keys(patch).length > 0) await repos.accounts.update(accountId, patch);
      });
    },

    exists: async (accountId: string) => (await accounts.find(accountId)) !== undefined,

    async get(accountId: string) {
      return toAccountDetail(await mustFind(accountId));
    },

    async list() {
      return (await accounts.list()).map(toAccountDetail);
    },

    async setStatus(accountId: string, status: AccountStatus) {
      await mustFind(accountId);
      await accounts.update(accountId, { status });
    },

    async setBalance(accountId: string, yuan: number) {
      checkBalance(yuan);
      await mustFind(accountId);
      await accounts.update(accountId, { balance_cents: toCents(yuan) });
    },

    async setEndTime(accountId: string, endUseTime: number | null) {
      await mustFind(accountId);
      await accounts.update(accountId, { end_use_time: endUseTime });
    },

    async rename(accountId: string, name: string) {
      if (!name.trim()) throw new AppError(CommonCodes.incompleteParams, PortalText.accountNameRequired);
      await mustFind(accountId);
      await accounts.update(accountId, { name: name.trim() });
    },

    async addGroup(groupId: string, name: string) {
      if (!ACCOUNT_ID.test(groupId)) throw new AppError(CommonCodes.invalidInput, PortalText.groupIdInvalid);
      if (await accounts.findGroup(groupId)) {
        throw new AppError(CommonCodes.invalidInput, PortalText.userGroupExists(groupId), { status: 409 });
      }
      await accounts.insertGroup({ group_id: groupId, name: name.trim() || groupId, created_at: now() });
    },

    listGroups: () => accounts.listGroups(),

    /** Adds the user to the account (or changes their member type and group). */
    async setMember(input: {
      accountId: string;
      username: string;
      memberType?: MemberType;
      groupId?: string | null;
    }) {
      await mustFind(input.accountId);
      const user = await mustFindUser(input.username);
      if (input.groupId && !(await accounts.findGroup(input.groupId))) {
        throw new AppError(PortalCodes.notFound, PortalText.noUserGroup(input.groupId));
      }
      await accounts.upsertMember({
        account_id: input.accountId,
        user_id: user.id,
        member_type: input.memberType ?? 'member',
        group_id: input.groupId ?? null,
        created_at: now(),
      });
    },

    async removeMember(accountId: string, username: string) {
      const user = await mustFindUser(username);
      if ((await accounts.deleteMember(accountId, user.id)) === 0) {
        throw new AppError(PortalCodes.notFound, PortalText.notMember(username, accountId));
      }
    },

    /**
     * The user's accounts, derived from their clusters (spec §3): each compute user's account, grouped by
     * accountId, with the names of its centres joined in cluster order (停用 last).
     */
    async accountsOf(userId: number): Promise<UserAccount[]> {
      const rows = sortClusters(
        (await clusters.computeUsersOf(userId)).map((r) => ({
          ...r,
          clusterId: r.cluster_id,
          centerName: r.center_name,
        })),
      );
      const ids = [...new Set(rows.flatMap((r) => (r.account_id ? [r.account_id] : [])))];
      const details = new Map((await accounts.findMany(ids)).map((a) => [a.account_id, toAccountDetail(a)]));
      return ids.flatMap((id) => {
        const detail = details.get(id);
        if (!detail) return [];
        const mine = rows.filter((r) => r.account_id === id);
        return [
          {
            ...detail,
            clusterIds: mine.map((r) => r.cluster_id),
            centerNames: mine.map((r) => r.center_name).join('、'),
            centerNamesEn: mine.map((r) => r.center_name_en || r.center_name).join(', '),
          },
        ];
      });
    },

    /** The user's accounts that need the alert bar, with their reasons. */
    async alertsOf(userId: number): Promise<AccountAlert[]> {
      const t = now();
      return (await service.accountsOf(userId)).map((a) => alertFor(a, t)).filter((a) => a.kinds.length > 0);
    },
  };
  return service;
}

export type AccountService = ReturnType<typeof createAccountService>;
