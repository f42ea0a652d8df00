import {
  AdminAccountBody,
  AdminAccountsResponse,
  AdminClusterBody,
  AdminComputeUserBody,
  AdminMemberBody,
  AdminServiceListBody,
  AdminUserBody,
  AdminUserUpdateBody,
  AdminUsersResponse,
  EmptyResponse,
} from '@hpc/contracts';
import type { Static, TSchema } from 'typebox';
import { ok, type AppServer } from '@hpc/server-kit';
import type { IdentityServices } from '../identity.services';
import { toAdminUser } from '../data/user.model';

const tags = ['admin'];
const done = { 200: EmptyResponse };

/**
 * Manager-only administration over HTTP: the same service functions as the admin CLI (docs/OPERATIONS.md), for an
 * admin page. Registered in a `manager` route group: every call answers 401 without a session and 403 for a
 * non-manager before its handler runs.
 */
export function adminRoutes(app: AppServer, services: IdentityServices): void {
  const { users, clusters, computeUsers, accounts } = services;
  /** A change: a POST whose body one service call takes, answered with an empty envelope once it is done. */
  const change = <B extends TSchema>(url: string, body: B, apply: (body: Static<B>) => Promise<unknown>) =>
    app.post(url, { schema: { tags, body, response: done } }, async (req) => {
      await apply(req.body as Static<B>);
      return ok(null);
    });

  app.get('/api/admin/users', { schema: { tags, response: { 200: AdminUsersResponse } } }, async () => {
    return ok((await users.list()).map(toAdminUser));
  });

  change('/api/admin/users', AdminUserBody, (b) => users.add(b));
  change('/api/admin/users/update', AdminUserUpdateBody, ({ username, ...patch }) =>
    users.updateUser(username, patch),
  );
  change('/api/admin/clusters', AdminClusterBody, (b) => clusters.add(b));
  change('/api/admin/clusters/service', AdminServiceListBody, (b) =>
    clusters.setServiceList(b.clusterId, b.service, b.entries),
  );

  app.get('/api/admin/accounts', { schema: { tags, response: { 200: AdminAccountsResponse } } }, async () => {
    return ok(await accounts.list());
  });

  /** Creates the account when it does not exist (name required then), else changes the given fields (one transaction). */
  change('/api/admin/accounts', AdminAccountBody, (b) => accounts.save(b));
  change('/api/admin/members', AdminMemberBody, (b) => accounts.setMember(b));
  change('/api/admin/computeusers', AdminComputeUserBody, (b) => computeUsers.setComputeUser(b));
}
