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

  app.get('/api/admin/users', { schema: { tags, response: { 200: AdminUsersResponse } } }, async () => {
    return ok((await users.list()).map(toAdminUser));
  });

  app.post('/api/admin/users', { schema: { tags, body: AdminUserBody, response: done } }, async (req) => {
    await users.add(req.body);
    return ok(null);
  });

  app.post(
    '/api/admin/users/update',
    { schema: { tags, body: AdminUserUpdateBody, response: done } },
    async (req) => {
      const { username, ...patch } = req.body;
      await users.updateUser(username, patch);
      return ok(null);
    },
  );

  app.post(
    '/api/admin/clusters',
    { schema: { tags, body: AdminClusterBody, response: done } },
    async (req) => {
      await clusters.add(req.body);
      return ok(null);
    },
  );

  app.post(
    '/api/admin/clusters/service',
    { schema: { tags, body: AdminServiceListBody, response: done } },
    async (req) => {
      await clusters.setServiceList(req.body.clusterId, req.body.service, req.body.entries);
      return ok(null);
    },
  );

  app.get('/api/admin/accounts', { schema: { tags, response: { 200: AdminAccountsResponse } } }, async () => {
    return ok(await accounts.list());
  });

  /** Creates the account when it does not exist (name required then), else changes the given fields (one transaction). */
  app.post(
    '/api/admin/accounts',
    { schema: { tags, body: AdminAccountBody, response: done } },
    async (req) => {
      await accounts.save(req.body);
      return ok(null);
    },
  );

  app.post('/api/admin/members', { schema: { tags, body: AdminMemberBody, response: done } }, async (req) => {
    await accounts.setMember(req.body);
    return ok(null);
  });

  app.post(
    '/api/admin/computeusers',
    { schema: { tags, body: AdminComputeUserBody, response: done } },
    async (req) => {
      await computeUsers.setComputeUser(req.body);
      return ok(null);
    },
  );
}
