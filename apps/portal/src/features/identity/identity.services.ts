import type { PortalDeps } from '../../deps';
import { createIdentityRepositories, transactionsOf } from './data/repositories';
import { createAccountService } from './services/account.service';
import { createAuthService } from './services/auth.service';
import { createClusterTokenService } from './services/cluster-token.service';
import { createLoginThrottle } from './services/login-throttle';
import { createSessionService } from './services/session.service';
import { createClusterService } from './services/cluster.service';
import { createComputeUserService } from './services/compute-user.service';
import { createCredentialService } from './services/credential.service';
import { createUserService } from './services/user.service';

type IdentityDeps = Pick<PortalDeps, 'db' | 'kv' | 'now' | 'config' | 'signingKeys' | 'revocations'>;
const built = new WeakMap<IdentityDeps, IdentityServices>();

/**
 * The identity services of these deps, built on first use and the same object afterwards: the routes of every
 * feature (through the `identity-services` plugin), the demo seed and the in-process owner-rights lookup of the
 * all-in-one share one set, so a session ended through one is ended for all of them.
 */
export function identityServicesOf(deps: IdentityDeps): IdentityServices {
  let services = built.get(deps);
  if (!services) {
    services = createIdentityServices(deps);
    built.set(deps, services);
  }
  return services;
}

/**
 * Builds the repositories and services of identity, clusters and accounts from the portal's deps. The routes, the
 * demo seed and the admin CLI all use these same services, so the rules hold whichever way data comes in. A
 * process builds them once (`identityServicesOf`).
 */
export function createIdentityServices(deps: IdentityDeps) {
  const { db, kv, now, config, revocations } = deps;
  const repos = createIdentityRepositories(db);
  const transaction = transactionsOf(db);
  const users = createUserService({
    users: repos.users,
    sessions: repos.sessions,
    revocations,
    transaction,
    now,
  });
  const sessions = createSessionService({
    sessions: repos.sessions,
    users: repos.users,
    revocations,
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
  const serviceDeps = {
    clusters: repos.clusters,
    accounts: repos.accounts,
    users: repos.users,
    transaction,
    now,
  };
  return {
    repos,
    users,
    sessions,
    tokens,
    clusters: createClusterService(serviceDeps),
    computeUsers: createComputeUserService(serviceDeps),
    accounts: createAccountService(serviceDeps),
    credentials: createCredentialService({ revocations }),
    auth: createAuthService({ users, sessions, throttle, tokens }),
  };
}

export type IdentityServices = ReturnType<typeof createIdentityServices>;
