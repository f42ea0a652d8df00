import { CommonCodes, PortalCodes, type JobAccount, type OwnerRights } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { ServiceUser } from '@hpc/cluster-kit';
import type { JobsDeps } from '../../deps';
import type { ClusterInfo } from '../../scheduler/scheduler';
import { JobsText } from '../../messages';

/**
 * A portal account's Slurm account is named by the portal account's id (Slurm folds account names to lower case):
 * the portal owns the accounts, and an operator creates the Slurm account of the same name (docs/DECISIONS.md).
 */
export const slurmAccountOf = (portalAccountId: string): string => portalAccountId.toLowerCase();

/**
 * The user's rights on this cluster as they are now, asked of the portal on every call that charges an account
 * (the token's claims are up to 12 h old; issue 22 §2 wants a disabled account refused at once). No compute user
 * here any more: "601009".
 */
export async function rightsNow(deps: JobsDeps, user: ServiceUser): Promise<OwnerRights> {
  const rights = await deps.ownerRights(user.sub);
  if (!rights || rights.cun !== user.cun)
    throw new AppError(CommonCodes.clusterUserMissing, JobsText.noComputeUser);
  return rights;
}

/** The deactivated-account refusal of spec §1/§4 ("612007", the centre's account named in `data`). */
export function deactivated(rights: OwnerRights, clusterId: string, expired = false): AppError {
  const msg = expired ? JobsText.accountExpired : JobsText.accountDeactivated;
  return new AppError(PortalCodes.accountDisabled, msg, {
    data: { clusterId, accountId: rights.acct ?? null, expired },
  });
}

/** Throws unless the account's state lets the user start work now (Normal, not past its end). */
export function checkUsable(rights: OwnerRights, clusterId: string, now: number): void {
  if (rights.st !== 'Normal') throw deactivated(rights, clusterId);
  if (rights.exp_acct !== null && rights.exp_acct <= now) throw deactivated(rights, clusterId, true);
}

/**
 * The accounts the user may charge here: the portal account of their compute user on this cluster, when the
 * scheduler associates the user with its Slurm account (unknown associations, before the first reading: trusted).
 */
export function accountsOf(rights: OwnerRights, cluster: ClusterInfo | null): JobAccount[] {
  if (!rights.acct) return [];
  const name = slurmAccountOf(rights.acct);
  if (cluster && !cluster.associations.some((a) => a.user === rights.cun && a.account === name)) return [];
  return [{ name, portalAccountId: rights.acct, status: rights.st }];
}

/** The account of a submission must be one of those, and usable (checked before the scheduler is asked). */
export function checkAccount(
  rights: OwnerRights,
  cluster: ClusterInfo | null,
  account: string,
  clusterId: string,
  now: number,
): void {
  const mine = accountsOf(rights, cluster);
  if (!mine.some((a) => a.name === account))
    throw new AppError(CommonCodes.noAccountPermission, JobsText.accountNotYours(account));
  checkUsable(rights, clusterId, now);
}
