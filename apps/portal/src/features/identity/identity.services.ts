import type { PortalDeps } from '../../deps';
import { createAccountRepository } from '../accounts/account.repository';
import { createAccountService } from '../accounts/account.service';
import { createAuthService } from '../auth/auth.service';
import { createClusterTokenService } from '../auth/cluster-token.service';
import { createLoginThrottle } from '../auth/login-throttle';
import { createSessionRepository } from '../auth/session.repository';
import { createSessionService } from '../auth/session.service';
import { createClusterRepository } from '../clusters/cluster.repository';
import { createClusterService } from '../clusters/cluster.service';
import { createComputeUserService } from '../clusters/compute-user.service';
import { createUserRepository } from '../users/user.repository';
import { createUserService } from '../users/user.service';

/**
 * Builds the repositories and services of identity, clusters and accounts from the portal's deps. The routes, the
 * demo seed and the admin CLI all use these same services, so the rules hold whichever way data comes in.
 */
export function createIdentityServices(
  deps: Pick<PortalDeps, 'db' | 'kv' | 'now' | 'config' | 'signingKeys'>,
) {
  const { db, kv, now, config } = deps;
  const repos = {
    users: createUserRepository(db),
    clusters: createClusterRepository(db),
    accounts: createAccountRepository(db),
    sessions: createSessionRepository(db),
  };
  const users = createUserService({ users: repos.users, sessions: repos.sessions, now });
  const sessions = createSessionService({
    sessions: repos.sessions,
    users: repos.users,
    now,
    policy: { idleMs: config.SESSION_IDLE_MINUTES * 60_000, maxMs: config.SESSION_MAX_HOURS * 3_600_000 },
  });
  const tokens = createClusterTokenService({
    clusters: repos.clusters,
    accounts: repos.accounts,
    users: repos.users,
    keys: deps.signingKeys,
    ttlSeconds: config.CLUSTER_TOKEN_TTL_MINUTES * 60,
  });
  const throttle = createLoginThrottle(kv, {
    maxPerUser: config.LOGIN_MAX_FAILURES_PER_USER,
    maxPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
    windowMs: config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
  });
  const serviceDeps = { clusters: repos.clusters, accounts: repos.accounts, users: repos.users, now };
  return {
    repos,
    users,
    sessions,
    tokens,
    clusters: createClusterService(serviceDeps),
    computeUsers: createComputeUserService(serviceDeps),
    accounts: createAccountService(serviceDeps),
    auth: createAuthService({ users, sessions, throttle, tokens }),
  };
}

export type IdentityServices = ReturnType<typeof createIdentityServices>;
