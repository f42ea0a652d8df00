import { CommonCodes, PortalCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { AccountRepository } from '../data/account.repository';
import type { UserRepository } from '../data/user.repository';
import type { ClusterRepository } from '../data/cluster.repository';
import { defaultHome, isValidHome } from '../data/cluster.model';
import { createClusterService } from './cluster.service';
import { PortalText } from '../../../messages';

/** POSIX user names as clusters create them (spec §5: lower-case letters, digits, underscores, a letter first). */
const CLUSTER_USER = /^[a-z_][a-z0-9_-]{0,31}$/;

export interface ComputeUserServiceDeps {
  clusters: ClusterRepository;
  accounts: AccountRepository;
  users: UserRepository;
  now: () => number;
}

/** Administration of compute users (a portal user's POSIX user on a cluster) and shared storage grants. */
export function createComputeUserService(deps: ComputeUserServiceDeps) {
  const { clusters, accounts, users, now } = deps;
  const clusterService = createClusterService(deps);
  const service = {
    /** Creates or changes the user's compute user on a cluster, charged to an account they are a member of. */
    async setComputeUser(input: {
      username: string;
      clusterId: string;
      clusterUserName?: string;
      homePath?: string;
      accountId?: string | null;
    }) {
      const user = await users.findByUsername(input.username);
      if (!user) throw new AppError(PortalCodes.notFound, PortalText.noUserNamed(input.username));
      const cluster = await clusterService.get(input.clusterId);
      const cun = input.clusterUserName ?? input.username;
      if (!CLUSTER_USER.test(cun)) {
        throw new AppError(CommonCodes.invalidInput, PortalText.computeUserNameInvalid);
      }
      const home = input.homePath ?? defaultHome(cluster.params, cun);
      if (!isValidHome(home, cun)) {
        throw new AppError(CommonCodes.invalidInput, PortalText.homeInvalid);
      }
      const taken = await clusters.findComputeUserByName(cluster.clusterId, cun);
      if (taken && taken.user_id !== user.id) {
        throw new AppError(CommonCodes.invalidInput, PortalText.computeUserTaken(cun, cluster.clusterId), {
          status: 409,
        });
      }
      const accountId = input.accountId ?? null;
      if (accountId) {
        if (!(await accounts.find(accountId)))
          throw new AppError(PortalCodes.notFound, PortalText.noAccount(accountId));
        if (!(await accounts.findMember(accountId, user.id))) {
          throw new AppError(
            CommonCodes.noAccountPermission,
            PortalText.notMemberAddFirst(input.username, accountId),
          );
        }
      }
      await clusters.upsertComputeUser({
        user_id: user.id,
        cluster_id: cluster.clusterId,
        cluster_user_name: cun,
        home_path: home,
        account_id: accountId,
        created_at: now(),
      });
    },

    async removeComputeUser(username: string, clusterId: string) {
      const user = await users.findByUsername(username);
      if (!user || (await clusters.deleteComputeUser(user.id, clusterId)) === 0) {
        throw new AppError(CommonCodes.clusterUserMissing, PortalText.noComputeUser(username, clusterId));
      }
    },

    /** Grants a shared path on a cluster to a user or to a user group (idempotent). */
    async grantPath(input: { clusterId: string; path: string; username?: string; groupId?: string }) {
      await clusterService.get(input.clusterId);
      const row = await service.pathGrant(input);
      if (!(await clusters.findStoragePath(row)))
        await clusters.insertStoragePath({ ...row, created_at: now() });
    },

    async revokePath(input: { clusterId: string; path: string; username?: string; groupId?: string }) {
      const found = await clusters.findStoragePath(await service.pathGrant(input));
      if (!found) throw new AppError(PortalCodes.notFound, PortalText.noSuchPathGrant);
      await clusters.deleteStoragePath(found.id);
    },

    async pathGrant(input: { clusterId: string; path: string; username?: string; groupId?: string }) {
      if (
        !input.path.startsWith('/') ||
        /\s|\/\.\.?(\/|$)|\/\//.test(input.path) ||
        input.path.length > 1024
      ) {
        throw new AppError(CommonCodes.invalidInput, PortalText.storagePathInvalid);
      }
      if (Boolean(input.username) === Boolean(input.groupId)) {
        throw new AppError(CommonCodes.incompleteParams, PortalText.grantOneOf);
      }
      let userId: number | null = null;
      if (input.username) {
        const user = await users.findByUsername(input.username);
        if (!user) throw new AppError(PortalCodes.notFound, PortalText.noUserNamed(input.username));
        userId = user.id;
      }
      if (input.groupId && !(await accounts.findGroup(input.groupId))) {
        throw new AppError(PortalCodes.notFound, PortalText.noUserGroup(input.groupId));
      }
      const path = input.path.length > 1 ? input.path.replace(/\/+$/, '') : input.path;
      return { cluster_id: input.clusterId, path, user_id: userId, group_id: input.groupId ?? null };
    },
  };
  return service;
}

export type ComputeUserService = ReturnType<typeof createComputeUserService>;
