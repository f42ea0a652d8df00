import crypto from 'node:crypto';
import path from 'node:path';
import { SignJWT, decodeJwt } from 'jose';
import {
  CLUSTER_TOKEN_ISSUER,
  FASTRANS_MIN_CLIENT_VERSION,
  FASTRANS_TOKEN_USE,
  FastransRefusal,
  Refusal,
  compareVersions,
  type FastransPresence,
  type FastransServer,
  CommonCodes,
  FileCodes,
  PortalCodes,
  refusalOf,
} from '@hpc/contracts';
import type { EfileCalls } from '@hpc/api-client';
import {
  AppError,
  createAttemptThrottle,
  createClusterTokenVerifier,
  credentialId,
  isAppError,
} from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { clientKeyOf, openClientKeySecret, verifyClientProof } from '../../keys/client-key-secret';
import { createClientKeyRepository } from './client-key.repository';
import { signingKeysDir } from '../../keys/signing-keys';
import type { IdentityServices } from '../identity';
import type { ClientIdentity, ClientPresence } from './client-presence';
import { PortalText } from '../../messages';

/** The claim that marks a fast-transfer token (a cluster token limited to the home, valid for the day). */
export const FASTRANS_USE = FASTRANS_TOKEN_USE;
const DAY_MS = 24 * 3600_000;
/**
 * Web logins of the client one user may make in 24 hours (from the first). Each is a session kept in the KV store
 * until its day token ends: a loop of logins with one day token grew the store without end (found from outside,
 * 2026-12-01). A client logs in once per day token and keeps the login across restarts.
 */
export const MAX_WEB_LOGINS_PER_DAY = 500;

export interface WebSession {
  sub: string;
  clusterId: string;
  exp: number;
  /** The compute user the day token was made for: a different one today ends the web login. */
  cun: string;
  /** The day token's issue time (s) and credential id: a user disabled since, or the token revoked, end it. */
  iat?: number;
  credential: string;
}

/** Web-server answers: HTTP 200 with the client's result codes of spec §8 (web server: 1000-1049). */
export class WebError extends Refusal {}

const isUnder = (p: string, root: string) =>
  p === root || p.startsWith(root.endsWith('/') ? root : root + '/');

/**
 * The portal's side of fast transfer (spec §7): the login that hands the page (and the command line) a day token
 * for one cluster, the write-permission check (asked of the cluster's efile), and the fast-transfer web server the
 * client logs in to and gets the cluster's efile instances from.
 */
export function fastransService(
  deps: PortalDeps,
  services: IdentityServices,
  /** The efile calls of one instance of a cluster with the user's token (`portalEfileClient`). */
  efileAt: (base: string, clusterId: string, token: string) => EfileCalls,
  present: ClientPresence,
) {
  const verifiers = new Map<string, ReturnType<typeof createClusterTokenVerifier>>();
  const keys = createClientKeyRepository(deps.db);
  const webLogins = createAttemptThrottle(deps.kv);
  /** The secret of the users' client keys, beside the signing keys (read or made on first use). */
  let secret: Buffer | null = null;
  const clientSecret = () => (secret ??= openClientKeySecret(signingKeysDir(deps.config)));
  const verifierOf = (clusterId: string) => {
    let v = verifiers.get(clusterId);
    if (!v) {
      v = createClusterTokenVerifier({ clusterId, jwks: () => deps.publicJwks() });
      verifiers.set(clusterId, v);
    }
    return v;
  };

  /** The compute user of `userId` on the cluster (default: the first), with its home and efile instances. */
  async function placeOf(userId: number, clusterId?: string) {
    const info = await services.clusters.efileInfo(userId, clusterId);
    const cu = (await services.clusters.computeUsersOf(userId)).find((c) => c.clusterId === info.clusterId);
    const account = cu?.accountId ? await services.repos.accounts.find(cu.accountId) : undefined;
    return { info, expAcct: account?.end_use_time ?? null };
  }

  function inHome(home: string, input: string): string {
    const p = path.posix.normalize(input);
    if (!p.startsWith('/') || !isUnder(p, path.posix.normalize(home)))
      throw new AppError(FileCodes.permissionDenied, PortalText.fastransOutsideHome, {
        data: { reason: FastransRefusal.outsideHome },
      });
    return p;
  }

  /**
   * The user's rights of the moment still allow this web login (issue 24 §3.5): the day token is not revoked, the
   * portal user is not disabled since it was made, and on its cluster the same compute user's account is neither
   * disabled nor ended. Asked on the login and on every call after it (server list, heartbeat, relay), as efile
   * asks on every use of the day token, so a disabled user's client stops at once rather than at the day's end.
   */
  async function assertAllowed(s: WebSession): Promise<void> {
    const revoked = await deps.revocations.revoked({ sub: s.sub, iat: s.iat, credential: s.credential });
    if (revoked) throw new WebError(CommonCodes.tokenWithoutUser, PortalText.webLoginRevoked);
    const refused = refusalOf(await services.tokens.currentRights(s.sub, s.clusterId), s.cun, Date.now());
    if (refused === 'no-user') throw new WebError(CommonCodes.tokenWithoutUser, PortalText.webTokenGone);
    if (refused === 'disabled') throw new WebError(CommonCodes.userFrozen, PortalText.webUserDisabled);
    if (refused === 'expired') throw new WebError(CommonCodes.userFrozen, PortalText.webAccountExpired);
  }

  return {
    /**
     * spec §7 fast-transfer login: `directory` (URL-encoded) must be inside the user's home; the answer's token is
     * a cluster token with no granted paths (home only), valid until the end of the day (server time) or the
     * account's expiry, like the Linux commands.
     */
    /** `sid`: the page session that asks (ending it for safety revokes the token: credential.service). */
    async login(userId: number, sid: string, directory: string, clusterId?: string) {
      let dir: string;
      try {
        dir = decodeURIComponent(directory);
      } catch {
        throw new AppError(CommonCodes.invalidInput, PortalText.directoryNotUrlEncoded);
      }
      const { info, expAcct } = await placeOf(userId, clusterId);
      inHome(info.homePath, dir);
      const now = Date.now();
      const end = new Date(now);
      end.setHours(23, 59, 59, 999);
      const expiresAt = Math.min(end.getTime(), expAcct ?? Infinity, now + DAY_MS);
      if (expiresAt <= now) throw new AppError(CommonCodes.userFrozen, PortalText.accountExpired);
      const { kid, privateKey } = deps.signingKeys.active();
      const token = await new SignJWT({
        cun: info.username,
        home: info.homePath,
        paths: [],
        st: 'Normal',
        exp_acct: expAcct,
        use: FASTRANS_USE,
      })
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' })
        .setIssuer(CLUSTER_TOKEN_ISSUER)
        .setSubject(String(userId))
        .setAudience(info.clusterId)
        // Each login its own credential: without an id, two logins in one second signed the same bytes (EdDSA is
        // deterministic), so revoking one revoked the other and a fresh login handed back a revoked token.
        .setJti(crypto.randomUUID())
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(privateKey);
      // Recorded for the user centre, where the user can revoke it (issue 25 §1.4; every efile checks).
      await services.credentials.recordDayToken(userId, token, {
        clusterId: info.clusterId,
        expiresAt,
        directory: dir,
        sid,
      });
      return {
        token,
        clusterUserName: info.username,
        clusterId: info.clusterId,
        homePath: info.homePath,
        expiresAt,
      };
    },

    /** spec §6: write permission per folder before a fast upload, asked of the cluster's efile (first that answers). */
    async canWrite(userId: number, p: string, clusterId?: string): Promise<boolean> {
      const { info } = await placeOf(userId, clusterId);
      try {
        inHome(info.homePath, p);
      } catch {
        return false;
      }
      const entry = (await services.tokens.tokenList(userId)).find((t) => t.clusterId === info.clusterId);
      if (!entry) throw new AppError(CommonCodes.clusterUserMissing);
      for (const base of info.efileUrls) {
        try {
          const { allowded } = await efileAt(base, info.clusterId, entry.token).checkPermission(p, 'write');
          return allowded === true;
        } catch {
          /* a refusal or no answer: the next instance */
        }
      }
      throw new AppError(CommonCodes.unavailable, PortalText.clusterFileServiceDown);
    },

    /** Web server login: the day token (UK) and the client's version; answers a web session token. */
    async webLogin(uk: string | undefined, version: string) {
      if (compareVersions(version, FASTRANS_MIN_CLIENT_VERSION) < 0)
        throw new WebError(CommonCodes.remoteCall, PortalText.clientTooOld, {
          minVersion: FASTRANS_MIN_CLIENT_VERSION,
        });
      if (!uk) throw new WebError(CommonCodes.unavailable, PortalText.webLogInFirst);
      let clusterId: string;
      try {
        const aud = decodeJwt(uk).aud;
        clusterId = String(Array.isArray(aud) ? aud[0] : aud);
      } catch {
        throw new WebError(CommonCodes.unavailable, PortalText.webTokenInvalid);
      }
      const claims = await verifierOf(clusterId)
        .verify(uk)
        .catch(() => {
          throw new WebError(CommonCodes.unavailable, PortalText.webTokenExpired);
        });
      if ((claims as { use?: string }).use !== FASTRANS_USE)
        throw new WebError(CommonCodes.unavailable, PortalText.notFastransToken);
      const session: WebSession = {
        sub: claims.sub,
        clusterId,
        exp: claims.exp * 1000,
        cun: claims.cun,
        iat: claims.iat,
        credential: credentialId(uk),
      };
      await assertAllowed(session);
      // Counted atomically before the session is kept (in Redis when scaled out): a parallel burst gets no more.
      const room = await webLogins.attempt([
        {
          key: `fastrans:web-n:${session.sub}`,
          max: MAX_WEB_LOGINS_PER_DAY,
          windowMs: DAY_MS,
          onSuccess: 'keep',
        },
      ]);
      if (!room.allowed)
        throw new WebError(PortalCodes.tooManyRequests, PortalText.webTooManyLogins(MAX_WEB_LOGINS_PER_DAY));
      const token = crypto.randomBytes(24).toString('base64url');
      await deps.kv.set(
        `fastrans:web:${sha(token)}`,
        JSON.stringify(session),
        Math.max(1, session.exp - Date.now()),
      );
      return {
        token,
        clusterId,
        clusterUserName: claims.cun,
        homePath: claims.home,
        expiresAt: session.exp,
        minVersion: FASTRANS_MIN_CLIENT_VERSION,
      };
    },

    /**
     * The user's client key (base64url), written into the package the user downloads: the client proves it to the
     * page by its answer to `check` (docs/FASTRANS.md "Security"). Of the key's current generation.
     */
    async clientKey(userId: number): Promise<string> {
      const generation = await keys.generationOf(userId);
      return clientKeyOf(clientSecret(), userId, generation).toString('base64url');
    },

    /** Whether a local client's `proof` of `sign` was made with `userId`'s current client key (constant time). */
    async verifyClient(userId: number, sign: string, proof: string): Promise<boolean> {
      const generation = await keys.generationOf(userId);
      return verifyClientProof(clientSecret(), userId, sign, proof, generation);
    },

    /**
     * The user's key got out (a package unpacked where others read it): the key moves on, so no client of a
     * package downloaded before is the user's client for the page any more, and the day tokens already handed to
     * fast-transfer clients are revoked (their web logins end at their next call). The user downloads the client
     * again. The key moves first, so a page that verifies a client from then on refuses an old-key one (left: a page
     * that verified one just before and asks for its day token just after; that token is listed and revocable).
     */
    async revokeClientKey(userId: number): Promise<{ revokedTokens: number }> {
      await keys.advance(userId, Date.now());
      let revokedTokens = 0;
      for (const c of await services.credentials.list(userId))
        if (c.kind === 'fastrans' && (await services.credentials.revoke(userId, c.id))) revokedTokens++;
      return { revokedTokens };
    },

    async webSession(token: string | undefined): Promise<WebSession> {
      const raw = token ? await deps.kv.get(`fastrans:web:${sha(token)}`) : null;
      if (!raw) throw new WebError(CommonCodes.incompleteParams, PortalText.webNotLoggedIn);
      const session = JSON.parse(raw) as WebSession;
      await assertAllowed(session);
      return session;
    },

    async webLogout(token: string | undefined) {
      if (token) await deps.kv.del(`fastrans:web:${sha(token)}`);
    },

    /** Every enabled efile instance of the session's cluster, so the client spreads its work and fails over. */
    async servers(s: WebSession): Promise<FastransServer[]> {
      try {
        const { info } = await placeOf(Number(s.sub), s.clusterId);
        return info.efileUrls.map((url) => ({ url, clusterId: info.clusterId }));
      } catch (e) {
        if (!isAppError(e)) throw e;
        // The portal's refusal, said as it was (its Chinese kept when it was written for the occasion).
        const said = e.zh === null ? e.message : { en: e.message, zh: e.zh };
        throw new WebError(CommonCodes.noChange, said);
      }
    },

    /** The client says it is running (its outbound heartbeat): the page can tell "blocked" from "not running". */
    async heartbeat(s: WebSession, client: ClientIdentity) {
      await present.beat(s.sub, client);
    },
    /** The client logged out: it no longer calls, so the page should not count on it (not the 90 s of a crash). */
    async absent(sub: string, client: string) {
      await present.leave(sub, client);
    },
    /**
     * The user's running clients, the most recent first, each with whether it polls the relay (`relaying`: the
     * relay's own record of that); `running` and `version` as pages before the list read them.
     */
    async presence(
      userId: number,
      relaying: (client: string) => Promise<boolean>,
    ): Promise<FastransPresence> {
      const clients = await Promise.all(
        (await present.list(userId)).map(async (c) => ({ ...c, relay: await relaying(c.id) })),
      );
      return { running: clients.length > 0, version: clients[0]?.version ?? null, clients };
    },
  };
}
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
export type FastransService = ReturnType<typeof fastransService>;
