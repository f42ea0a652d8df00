import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { createKv, type KvStore, type RevocationStore } from '@hpc/server-kit';
import {
  createTokenCheck,
  openPortalTrust,
  parseShells,
  type OwnerRightsLookup,
  type PortalTrustOptions,
  type TokenCheck,
} from '@hpc/cluster-kit';
import type { EshellConfig } from './config';
import { Tickets } from './http/tickets';
import { openSessions } from './sessions/open-sessions';
import { SessionManager } from './sessions/session-manager';
import { prepareRunDir } from './ssh/ssh-login';

/** What the shell service is built from. */
export interface EshellDeps {
  config: EshellConfig;
  tokens: TokenCheck;
  revocations: RevocationStore;
  /** The user's rights of the moment (account disabled, compute user changed), when the portal can be asked. */
  ownerRights: OwnerRightsLookup | null;
  sessions: SessionManager;
  tickets: Tickets;
  now: () => number;
  close(): Promise<void>;
}

export interface EshellDepsOptions extends PortalTrustOptions {
  /** The store of the users' open shells, shared by the instances (tests: two instances in one process). */
  kv?: KvStore;
  /** How often detach and idle deadlines are looked at (tests: often). */
  sweepMs?: number;
  now?: () => number;
}

export async function openEshellDeps(
  config: EshellConfig,
  log: FastifyBaseLogger,
  opts: EshellDepsOptions = {},
): Promise<EshellDeps> {
  if (!opts.jwks && !config.ESHELL_JWKS_URL) throw new Error('ESHELL_JWKS_URL is required (the portal JWKS)');
  if (!config.ESHELL_CA_KEY || !fs.existsSync(config.ESHELL_CA_KEY))
    throw new Error(
      'ESHELL_CA_KEY: the SSH user CA private key file is required (docs/OPERATIONS.md, "E-Shell")',
    );
  const portal = openPortalTrust(
    {
      clusterId: config.ESHELL_CLUSTER_ID,
      jwksUrl: config.ESHELL_JWKS_URL,
      portalUrl: config.ESHELL_PORTAL_URL,
      serviceSecret: config.ESHELL_SERVICE_SECRET,
      redisUrl: config.REDIS_URL,
    },
    opts,
  );
  const { ownerRights, revocations } = portal;
  const now = opts.now ?? Date.now;
  const tokens = createTokenCheck({
    verifier: portal.verifier,
    homePattern: config.ESHELL_HOME_PATTERN,
    ownerRights: ownerRights ?? (async () => null),
    now,
    revocations,
  });
  prepareRunDir(config.runDir);
  // The users' open shells over every instance: Redis when scaled out (REDIS_URL), else this process's memory.
  const ownKv = opts.kv ? null : createKv(config.REDIS_URL || undefined, 'hpc:eshell:');
  const sessions = new SessionManager({
    clusterId: config.ESHELL_CLUSTER_ID,
    ssh: {
      sshBin: config.ESHELL_SSH_BIN,
      keygenBin: config.ESHELL_SSH_KEYGEN_BIN,
      caKey: config.ESHELL_CA_KEY,
      runDir: config.runDir,
      certMinutes: config.ESHELL_CERT_MINUTES,
      connectTimeoutS: config.ESHELL_CONNECT_TIMEOUT_S,
    },
    maxPerUser: config.ESHELL_MAX_SESSIONS_PER_USER,
    open: openSessions(opts.kv ?? ownKv!, config.ESHELL_CLUSTER_ID, now),
    detachMs: config.ESHELL_DETACH_S * 1000,
    idleMs: config.ESHELL_IDLE_S * 1000,
    scrollbackBytes: config.ESHELL_SCROLLBACK_KB * 1024,
    lang: config.ESHELL_LANG,
    sweepMs: opts.sweepMs ?? 5000,
    accounts: { minUid: config.ESHELL_MIN_UID, refusedShells: parseShells(config.ESHELL_REFUSED_SHELLS) },
    log,
    now,
  });
  return {
    config,
    tokens,
    revocations,
    ownerRights,
    sessions,
    tickets: new Tickets(30_000, now),
    now,
    async close() {
      await sessions.close();
      await portal.close();
      await ownKv?.close();
    },
  };
}
