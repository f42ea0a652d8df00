import type { AdminUser } from '@hpc/contracts';
import type { UserRow } from './user.repository';

/** A user as operators see them (admin calls and the CLI): never the password hash. */
export const toAdminUser = (u: UserRow): AdminUser => ({
  id: u.id,
  username: u.username,
  fullName: u.full_name,
  email: u.email,
  role: u.role,
  status: u.status,
  sso: u.oidc_subject !== null,
  createdAt: u.created_at,
});
