import path from 'node:path';
import { Type, type Static } from 'typebox';
import { TrustProxySetting, loadConfig, trustedPeer, type TrustedPeer } from '@hpc/server-kit';
import { parseLoginNodes, type LoginNode } from './ssh/login-nodes';

/** The environment of one shell service instance (one cluster), read once at start. Documented in docs/OPERATIONS.md. */
export const EshellEnv = Type.Object({
  ESHELL_CLUSTER_ID: Type.String({ default: '11250', minLength: 1 }),
  ESHELL_PORT: Type.Integer({ default: 8093, minimum: 0, maximum: 65535 }),
  ESHELL_HOST: Type.String({ default: '0.0.0.0' }),
  /** The portal's JWKS (scaled-out mode), e.g. https://portal.example.org/api/auth/jwks.json. */
  ESHELL_JWKS_URL: Type.String({ default: '' }),
  /** The portal's base URL for the rights of the moment (empty: the origin of ESHELL_JWKS_URL). */
  ESHELL_PORTAL_URL: Type.String({ default: '' }),
  /** The portal's EFILE_SERVICE_SECRET: without it the periodic account check is skipped (revocations still apply). */
  ESHELL_SERVICE_SECRET: Type.String({ default: '' }),
  ESHELL_HOME_PATTERN: Type.String({ default: '/public/home/{user}' }),
  /** The private key of the cluster's SSH user CA (its public half is in each login node's TrustedUserCAKeys). */
  ESHELL_CA_KEY: Type.String({ default: '' }),
  /**
   * The login nodes a shell may be opened on, with their pinned host keys, as JSON:
   * `[{"address":"login01:22","hostKey":"ssh-ed25519 AAAA…"}]`; `hostKey` may instead be
   * `@cert-authority ssh-ed25519 AAAA…` (the host certificate's CA). A node not listed here is refused.
   */
  ESHELL_LOGIN_NODES: Type.String({ default: '[]' }),
  /** Origins a page may open the socket from (comma list); empty: the service's own origin only. */
  ESHELL_ALLOWED_ORIGINS: Type.String({ default: '' }),
  ESHELL_MAX_SESSIONS_PER_USER: Type.Integer({ default: 8, minimum: 1, maximum: 1000 }),
  /** How long a session whose socket dropped keeps running for the page to attach again (issue 26 §2). */
  ESHELL_DETACH_S: Type.Number({ default: 600, minimum: 0.1 }),
  /** A session without input and without output this long ends. */
  ESHELL_IDLE_S: Type.Number({ default: 1800, minimum: 0.1 }),
  /** The scroll-back kept per session and replayed on attach (KiB). */
  ESHELL_SCROLLBACK_KB: Type.Integer({ default: 256, minimum: 1, maximum: 16384 }),
  /** Validity of a session's user certificate, minutes (it is only used for the handshake). */
  ESHELL_CERT_MINUTES: Type.Integer({ default: 5, minimum: 1, maximum: 60 }),
  /** How often running sessions are checked against the portal's revocations (logout, disabled user). */
  ESHELL_REVOCATION_CHECK_S: Type.Number({ default: 15, minimum: 0.1 }),
  /** The shell's locale, sent to the login node (its sshd must `AcceptEnv LANG`): UTF-8, for Chinese text. */
  ESHELL_LANG: Type.String({ default: 'C.UTF-8', pattern: '^[A-Za-z0-9_.@-]{1,64}$' }),
  ESHELL_CONNECT_TIMEOUT_S: Type.Integer({ default: 10, minimum: 1 }),
  /**
   * The accounts a shell may be opened as, by the rules of efile's and the job service's workers (checked on this
   * host, which must know the cluster's users, as theirs do): no uid below this (system accounts), none of these
   * login shells. A manager who mapped a portal user to `postgres` got a shell as it (found from outside).
   */
  ESHELL_MIN_UID: Type.Integer({ default: 1000, minimum: 1 }),
  ESHELL_REFUSED_SHELLS: Type.String({
    default: '/usr/sbin/nologin,/sbin/nologin,/bin/false,/usr/bin/false',
  }),
  ESHELL_SSH_BIN: Type.String({ default: 'ssh' }),
  ESHELL_SSH_KEYGEN_BIN: Type.String({ default: 'ssh-keygen' }),
  /** Where the per-connection keys live for the seconds of a handshake (default DATA_DIR/run/eshell-<cluster>). */
  ESHELL_RUN_DIR: Type.String({ default: '' }),
  DATA_DIR: Type.String({ default: './data' }),
  REDIS_URL: Type.String({ default: '' }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  TRUST_PROXY: TrustProxySetting,
});
export type EshellEnv = Static<typeof EshellEnv>;

export interface EshellConfig extends EshellEnv {
  runDir: string;
  loginNodes: LoginNode[];
  allowedOrigins: string[];
  /** TRUST_PROXY read: whether a peer is the proxy whose X-Forwarded-Host counts. */
  proxy: TrustedPeer;
}

export function readEshellConfig(env: Record<string, string | undefined> = process.env): EshellConfig {
  const e = loadConfig(EshellEnv, env);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(e.ESHELL_CLUSTER_ID))
    throw new Error('ESHELL_CLUSTER_ID: letters, digits, _ -');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...e,
    ESHELL_CA_KEY: e.ESHELL_CA_KEY ? path.resolve(e.ESHELL_CA_KEY) : '',
    runDir: e.ESHELL_RUN_DIR
      ? path.resolve(e.ESHELL_RUN_DIR)
      : path.join(dataDir, 'run', `eshell-${e.ESHELL_CLUSTER_ID}`),
    loginNodes: parseLoginNodes(e.ESHELL_LOGIN_NODES),
    allowedOrigins: e.ESHELL_ALLOWED_ORIGINS.split(',')
      .map((s) => s.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    proxy: trustedPeer(e.TRUST_PROXY),
  };
}
