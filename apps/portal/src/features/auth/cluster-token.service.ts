import type { ClusterTokenEntry } from '@hpc/contracts';
import { signClusterToken } from '@hpc/server-kit';
import type { AccountRepository } from '../accounts/account.repository';
import type { ClusterRepository } from '../clusters/cluster.repository';
import { sortClusters } from '../clusters/cluster.model';
import type { SigningKeys } from './signing-keys';

/**
 * Issues the per-cluster tokens of a user (DESIGN.md §2): one EdDSA JWT per cluster they have a compute user on,
 * carrying the compute user, its home, the shared paths granted there, and the status and end of the account it is
 * charged to, so efile needs no call back to the portal.
 */
export function createClusterTokenService(deps: {
  clusters: ClusterRepository;
  accounts: AccountRepository;
  keys: SigningKeys;
  ttlSeconds: number;
}) {
  const { clusters, accounts, keys, ttlSeconds } = deps;
  return {
    async tokenList(userId: number): Promise<ClusterTokenEntry[]> {
      const [rows, paths] = await Promise.all([
        clusters.computeUsersOf(userId),
        clusters.storagePathsOf(userId),
      ]);
      const accountIds = [...new Set(rows.flatMap((r) => (r.account_id ? [r.account_id] : [])))];
      const byAccount = new Map((await accounts.findMany(accountIds)).map((a) => [a.account_id, a]));
      const { kid, privateKey } = keys.active();
      const ordered = sortClusters(
        rows.map((r) => ({ ...r, clusterId: r.cluster_id, centerName: r.center_name })),
      );
      return Promise.all(
        ordered.map(async (r) => {
          const account = r.account_id ? byAccount.get(r.account_id) : undefined;
          // signClusterToken stamps exp from the real clock, so expiresAt does too.
          const expiresAt = (Math.floor(Date.now() / 1000) + ttlSeconds) * 1000;
          const token = await signClusterToken(
            privateKey,
            kid,
            {
              sub: String(userId),
              aud: r.cluster_id,
              cun: r.cluster_user_name,
              home: r.home_path,
              paths: paths.filter((p) => p.cluster_id === r.cluster_id).map((p) => p.path),
              st: account?.status ?? 'Normal',
              exp_acct: account?.end_use_time ?? null,
            },
            ttlSeconds,
          );
          return { clusterId: r.cluster_id, token, clusterUserName: r.cluster_user_name, expiresAt };
        }),
      );
    },
  };
}

export type ClusterTokenService = ReturnType<typeof createClusterTokenService>;
