import type { ClusterTokenEntry, OwnerRights } from '@hpc/contracts';
import { signClusterToken } from '@hpc/server-kit';
import type { AccountRepository } from '../data/account.repository';
import type { ClusterRepository } from '../data/cluster.repository';
import type { UserRepository } from '../data/user.repository';
import { sortClusters } from '../data/cluster.model';
import type { SigningKeys } from '../../../keys/signing-keys';

/**
 * Issues the per-cluster tokens of a user (DESIGN.md §2): one EdDSA JWT per cluster they have a compute user on,
 * carrying the compute user, its home, the shared paths granted there, and the status and end of the account it is
 * charged to, so efile needs no call back to the portal for ordinary calls. What outlives a token (a share, a Linux
 * command) is checked again against `currentRights` on every use.
 */
export function createClusterTokenService(deps: {
  clusters: ClusterRepository;
  accounts: AccountRepository;
  users: UserRepository;
  keys: SigningKeys;
  ttlSeconds: number;
}) {
  const { clusters, accounts, users, keys, ttlSeconds } = deps;

  /** The user's rights on each cluster they have a compute user on, in the catalogue's cluster order. */
  async function rightsOf(userId: number): Promise<{ clusterId: string; rights: OwnerRights }[]> {
    const [rows, paths] = await Promise.all([
      clusters.computeUsersOf(userId),
      clusters.storagePathsOf(userId),
    ]);
    const accountIds = [...new Set(rows.flatMap((r) => (r.account_id ? [r.account_id] : [])))];
    const byAccount = new Map((await accounts.findMany(accountIds)).map((a) => [a.account_id, a]));
    const ordered = sortClusters(
      rows.map((r) => ({ ...r, clusterId: r.cluster_id, centerName: r.center_name })),
    );
    return ordered.map((r) => {
      const account = r.account_id ? byAccount.get(r.account_id) : undefined;
      return {
        clusterId: r.cluster_id,
        rights: {
          cun: r.cluster_user_name,
          home: r.home_path,
          paths: paths.filter((p) => p.cluster_id === r.cluster_id).map((p) => p.path),
          st: account?.status ?? 'Normal',
          exp_acct: account?.end_use_time ?? null,
          acct: account?.account_id ?? null,
        },
      };
    });
  }

  return {
    /**
     * One token per cluster of the user. `sid`: the session the tokens are for (the page's); when it ends, every
     * cluster service refuses them (the revocation store). Without it (tokens the portal uses itself for a model
     * copy or a permission check) only the user's disabling revokes them.
     */
    async tokenList(userId: number, sid?: string): Promise<ClusterTokenEntry[]> {
      const { kid, privateKey } = keys.active();
      return Promise.all(
        (await rightsOf(userId)).map(async ({ clusterId, rights }) => {
          // signClusterToken stamps exp from the real clock, so expiresAt does too.
          const expiresAt = (Math.floor(Date.now() / 1000) + ttlSeconds) * 1000;
          const token = await signClusterToken(
            privateKey,
            kid,
            { sub: String(userId), aud: clusterId, ...rights, ...(sid ? { sid } : {}) },
            ttlSeconds,
          );
          return { clusterId, token, clusterUserName: rights.cun, expiresAt };
        }),
      );
    },

    /**
     * A user's rights on one cluster now, for efile's checks of shares and Linux commands (issue 10 §2.3, §2.5):
     * null for an unknown or disabled portal user or one without a compute user there.
     */
    async currentRights(sub: string, clusterId: string): Promise<OwnerRights | null> {
      if (!/^\d{1,15}$/.test(sub)) return null;
      const user = await users.findById(Number(sub));
      if (!user || user.status !== 'active') return null;
      return (await rightsOf(user.id)).find((r) => r.clusterId === clusterId)?.rights ?? null;
    },
  };
}

export type ClusterTokenService = ReturnType<typeof createClusterTokenService>;
