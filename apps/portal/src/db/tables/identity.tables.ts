import type { Generated } from 'kysely';
import type { AccountStatus, MemberType, UserRole } from '@hpc/contracts';

/**
 * Tables of identity, clusters and accounts (spec §3). Times are milliseconds since the epoch (bigint), money is in
 * fen (bigint cents) so sums never drift; the API turns it back into yuan.
 */

export interface PortalUserTable {
  id: Generated<number>;
  username: string;
  full_name: string;
  email: string;
  /** argon2id PHC string; null for users who only log in by single sign-on. */
  password_hash: string | null;
  role: UserRole;
  status: 'active' | 'disabled';
  /** The OpenID provider and subject this user is linked to (both null for local-only users). */
  oidc_issuer: string | null;
  oidc_subject: string | null;
  created_at: number;
  updated_at: number;
}

export interface ClusterTable {
  cluster_id: string;
  center_name: string;
  center_name_en: string;
  created_at: number;
}

/** The params map of a cluster: `default_user_home_path`, service lists as JSON text, any operator key. */
export interface ClusterParamTable {
  cluster_id: string;
  name: string;
  value: string;
}

export interface AccountTable {
  account_id: string;
  name: string;
  status: AccountStatus;
  balance_cents: number;
  end_use_time: number | null;
  create_time: number;
}

export interface UserGroupTable {
  group_id: string;
  name: string;
  created_at: number;
}

/** A user's membership in an account: their role there and the user group they belong to through it. */
export interface AccountMemberTable {
  account_id: string;
  user_id: number;
  member_type: MemberType;
  group_id: string | null;
  created_at: number;
}

/** The user's compute (POSIX) user on a cluster, and the account its usage is charged to. */
export interface ComputeUserTable {
  user_id: number;
  cluster_id: string;
  cluster_user_name: string;
  home_path: string;
  account_id: string | null;
  created_at: number;
}

/** A shared storage path on a cluster, granted to one user or to every member of a user group. */
export interface StoragePathTable {
  id: Generated<number>;
  cluster_id: string;
  path: string;
  user_id: number | null;
  group_id: string | null;
  created_at: number;
}

export interface PortalSessionTable {
  /** SHA-256 (hex) of the cookie value: a leaked table does not hand out live sessions. */
  id: string;
  user_id: number;
  csrf_token: string;
  auth_method: 'password' | 'oidc';
  created_at: number;
  last_seen_at: number;
  /** Absolute end; the idle end is last_seen_at + the idle lifetime. */
  expires_at: number;
  ip: string;
  user_agent: string;
}

export interface IdentityTables {
  portal_user: PortalUserTable;
  cluster: ClusterTable;
  cluster_param: ClusterParamTable;
  account: AccountTable;
  user_group: UserGroupTable;
  account_member: AccountMemberTable;
  compute_user: ComputeUserTable;
  storage_path: StoragePathTable;
  portal_session: PortalSessionTable;
}
