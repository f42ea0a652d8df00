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
import type { SessionHttp } from '../auth/session-http';
import type { IdentityServices } from '../identity/identity.services';
import { toAdminUser } from '../users/user.model';

const tags = ['admin'];
const done = { 200: EmptyResponse };

/**
 * Manager-only administration over HTTP: the same service functions as the admin CLI (docs/OPERATIONS.md), for an
 * admin page. Every call answers 401 without a session and 403 for a non-manager.
 */
export function adminRoutes(app: AppServer, services: IdentityServices, http: SessionHttp): void {
  const { users, clusters, computeUsers, accounts } = services;

  app.get('/api/admin/users', { schema: { tags, response: { 200: AdminUsersResponse } } }, async (req) => {
    await http.requireManager(req);
    return ok((await users.list()).map(toAdminUser));
  });

  app.post('/api/admin/users', { schema: { tags, body: AdminUserBody, response: done } }, async (req) => {
    await http.requireManager(req);
    await users.add(req.body);
    return ok(null);
  });

  app.post(
    '/api/admin/users/update',
    { schema: { tags, body: AdminUserUpdateBody, response: done } },
    async (req) => {
      await http.requireManager(req);
      const { username, password, fullName, email, role, status } = req.body;
      await users.get(username);
      if (password !== undefined) await users.setPassword(username, password);
      if (fullName !== undefined || email !== undefined) await users.update(username, { fullName, email });
      if (role) await users.setRole(username, role);
      if (status) await users.setStatus(username, status);
      return ok(null);
    },
  );

  app.post(
    '/api/admin/clusters',
    { schema: { tags, body: AdminClusterBody, response: done } },
    async (req) => {
      await http.requireManager(req);
      await clusters.add(req.body);
      return ok(null);
    },
  );

  app.post(
    '/api/admin/clusters/service',
    { schema: { tags, body: AdminServiceListBody, response: done } },
    async (req) => {
      await http.requireManager(req);
      await clusters.setServiceList(req.body.clusterId, req.body.service, req.body.entries);
      return ok(null);
    },
  );

  app.get(
    '/api/admin/accounts',
    { schema: { tags, response: { 200: AdminAccountsResponse } } },
    async (req) => {
      await http.requireManager(req);
      return ok(await accounts.list());
    },
  );

  /** Creates the account when it does not exist (name required then), else changes the given fields. */
  app.post(
    '/api/admin/accounts',
    { schema: { tags, body: AdminAccountBody, response: done } },
    async (req) => {
      await http.requireManager(req);
      const { accountId, name, status, balance, endUseTime } = req.body;
      if (!(await accounts.exists(accountId))) {
        await accounts.add({ accountId, name: name ?? '', status, balance, endUseTime });
        return ok(null);
      }
      if (name !== undefined) await accounts.rename(accountId, name);
      if (status) await accounts.setStatus(accountId, status);
      if (balance !== undefined) await accounts.setBalance(accountId, balance);
      if (endUseTime !== undefined) await accounts.setEndTime(accountId, endUseTime);
      return ok(null);
    },
  );

  app.post('/api/admin/members', { schema: { tags, body: AdminMemberBody, response: done } }, async (req) => {
    await http.requireManager(req);
    await accounts.setMember(req.body);
    return ok(null);
  });

  app.post(
    '/api/admin/computeusers',
    { schema: { tags, body: AdminComputeUserBody, response: done } },
    async (req) => {
      await http.requireManager(req);
      await computeUsers.setComputeUser(req.body);
      return ok(null);
    },
  );
}
