import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { CommonCodes, FASTRANS_TOKEN_USE } from '@hpc/contracts';
import {
  AppError,
  assertNotRevoked,
  type ClusterTokenVerifier,
  type RevocationStore,
  type VerifiedClusterToken,
} from '@hpc/server-kit';
import type { UserScope } from '../paths/path-resolver';
import { ClusterKitText } from '../messages';
import { refusalOf, type OwnerRightsLookup } from './owner-rights';

/** The user a verified per-cluster token stands for, as every per-cluster service sees it. */
export interface ServiceUser extends UserScope {
  /** Portal user id. */
  sub: string;
  /** Cluster user name: whose worker acts for the request in unix mode. */
  cun: string;
  home: string;
  /** Account expiry (ms) or null. */
  expAcct: number | null;
  /** The page session the token was signed for (none for a day token): what it asks for is recorded with it. */
  sid?: string;
  /** A fast-transfer day token's user: it moves files, it makes no further credential (a Linux command). */
  dayToken?: true;
}

export type TokenClaims = VerifiedClusterToken;

export interface TokenCheckOptions {
  /** The portal's JWKS, this cluster's audience (server-kit's `createClusterTokenVerifier`). */
  verifier: ClusterTokenVerifier;
  /** The home of a compute user when the token carries none: `{user}` is the cluster user name. */
  homePattern: string;
  /** The portal's answer for a user's rights of the moment (long-lived tokens are checked against it on every use). */
  ownerRights: OwnerRightsLookup;
  now?: () => number;
  /**
   * The portal's revocations (server-kit's `revocation.ts`: sessions ended by logout, a password change or "sign out
   * everywhere", disabled users, revoked day tokens), asked on every request, a cached token or not, once the
   * signature is known good. Absent (a test of the check alone), nothing is revoked before it expires.
   */
  revocations?: RevocationStore;
  /**
   * Whether this service takes the fast-transfer client's day token (`use: "fastrans"`, up to 24 h, no session):
   * efile alone, whose file calls keep it to the home (docs/FASTRANS.md). Every other service (the job service,
   * E-Shell: a shell reaches every folder of the Unix user) refuses it, and any other special-purpose token, with
   * "1406", as a token it cannot use.
   */
  acceptDayTokens?: boolean;
}

/** How long a verified token is taken on trust again without a new signature check. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 1000;

/**
 * The per-cluster token check (efile's since issue 10, shared since issue 23): a token's signature, issuer, audience,
 * expiry and lifetime cap (server-kit's verifier), then the user it stands for.
 *
 * A chunked upload sends two requests per chunk with the same token; the EdDSA check (jose + WebCrypto, a hop to the
 * thread pool) was ~9 % of efile's time per chunk in a profile. So a token that verified is remembered (by its exact
 * string) for at most a minute and never past its own expiry: the claims are those the signature covered, and the
 * verifier caches the portal's keys for ten minutes anyway. Failures are never remembered; revocation is asked every
 * time.
 */
export function createTokenCheck(opts: TokenCheckOptions) {
  const now = opts.now ?? Date.now;
  // Wall-clock time, as the tokens' own `exp` is: an entry may never outlive the token it stands for.
  const verified = new LRUCache<string, TokenClaims>({
    max: VERIFIED_MAX,
    ttl: VERIFIED_TTL_MS,
    perf: { now: () => Date.now() },
    ttlResolution: 0, // read the clock on every look-up, never a cached reading
  });

  /** The claims of a token, or "1406" (missing, forged, expired, foreign, over its lifetime cap, revoked). */
  async function verify(token: string | undefined): Promise<TokenClaims> {
    if (!token) return opts.verifier.verify(token); // refuses: "1406"
    let claims = verified.get(token);
    if (!claims) {
      claims = await opts.verifier.verify(token);
      // Never past the token's own expiry (a token with no life left is not kept).
      const maxAge = Math.min(VERIFIED_TTL_MS, claims.exp * 1000 - Date.now());
      if (maxAge > 0) verified.set(token, claims, { ttl: maxAge });
    }
    // An ended session answers "401" (the page goes to the login page), a revoked token or disabled user "1406".
    if (opts.revocations) await assertNotRevoked(opts.revocations, token, claims);
    return claims;
  }

  const fromClaims = (
    claims: Pick<TokenClaims, 'sub' | 'cun' | 'home' | 'paths' | 'exp_acct' | 'sid'>,
  ): ServiceUser => {
    const home = claims.home || opts.homePattern.replace('{user}', claims.cun);
    return {
      sub: claims.sub,
      cun: claims.cun,
      home,
      roots: [home, ...claims.paths],
      expAcct: claims.exp_acct,
      ...(claims.sid ? { sid: claims.sid } : {}),
    };
  };

  /**
   * The user a token stands for. A disabled account is refused ("1007") unless `allowDisabled` (a call that only
   * shows the user who they are). The fast-transfer client's day token lives up to 24 h in a script or a shell
   * history, so, like a Linux command, it carries the rights of the moment rather than those of the day it was made:
   * a disabled portal user or account, an ended account, a changed compute user or a withdrawn folder stop it at once
   * (the portal's answer, on every use: no cache). It reaches the home only, as docs/FASTRANS.md says: the rights
   * of the moment give the home, never the folders the user is granted besides (issue 24 §3.4), so a day token
   * copied from a script cannot read a shared project folder. And only where the service opted into it
   * (`acceptDayTokens`, efile's): elsewhere it is refused with "1406".
   */
  async function userOf(claims: TokenClaims, { allowDisabled = false } = {}): Promise<ServiceUser> {
    // A token made for one purpose (the day token) is taken only by the service that opted into it: fail closed.
    if (claims.use !== undefined && !(claims.use === FASTRANS_TOKEN_USE && opts.acceptDayTokens === true))
      throw new AppError(CommonCodes.tokenWithoutUser);
    if (claims.st === 'Disable' && !allowDisabled) throw new AppError(CommonCodes.userFrozen);
    if (claims.use !== FASTRANS_TOKEN_USE) return fromClaims(claims);
    const rights = await opts.ownerRights(claims.sub);
    const refused = refusalOf(rights, claims.cun, now());
    if (refused === 'no-user')
      throw new AppError(CommonCodes.tokenWithoutUser, ClusterKitText.tokenNoLongerValid);
    if (refused === 'disabled' && !allowDisabled) throw new AppError(CommonCodes.userFrozen);
    if (refused === 'expired') throw new AppError(CommonCodes.userFrozen, ClusterKitText.accountExpired);
    return { ...fromClaims({ ...claims, ...rights!, paths: [] }), dayToken: true };
  }

  return {
    verify,
    userOf,
    /** Both: the user of a token, with its claims (their `exp` bounds what is issued on its strength). */
    async authenticate(token: string | undefined, o: { allowDisabled?: boolean } = {}) {
      const claims = await verify(token);
      return { claims, user: await userOf(claims, o) };
    },
  };
}
export type TokenCheck = ReturnType<typeof createTokenCheck>;

export interface RegisterTokenCheckOptions {
  /** Requests that need no token (a health check): their routes must not read the user. */
  isPublic?: (req: FastifyRequest) => boolean;
  /** Requests a disabled account may still make. */
  allowDisabled?: (req: FastifyRequest) => boolean;
}

/**
 * The token check as an `onRequest` hook of a Fastify scope: the `token` header only (never the address, where it
 * would land in logs), every request but the public ones. Returns `user(req)`, the request's user for the routes
 * ("1406" when a route of a public request asks).
 */
export function registerTokenCheck(
  app: FastifyInstance,
  check: TokenCheck,
  o: RegisterTokenCheckOptions = {},
) {
  const users = new WeakMap<FastifyRequest, { user: ServiceUser; claims: TokenClaims }>();
  app.addHook('onRequest', async (req) => {
    if (o.isPublic?.(req)) return;
    const header = req.headers.token;
    const got = await check.authenticate(typeof header === 'string' && header ? header : undefined, {
      allowDisabled: o.allowDisabled?.(req) === true,
    });
    users.set(req, got);
  });
  const entry = (req: FastifyRequest) => {
    const u = users.get(req);
    if (!u) throw new AppError(CommonCodes.tokenWithoutUser);
    return u;
  };
  return {
    user: (req: FastifyRequest) => entry(req).user,
    claims: (req: FastifyRequest) => entry(req).claims,
  };
}
