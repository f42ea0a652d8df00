import { randomUUID } from 'node:crypto';
import {
  SignJWT,
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  type CryptoKey,
  type KeyObject,
} from 'jose';
import { Value } from 'typebox/value';
import {
  CLUSTER_TOKEN_ISSUER,
  ClusterTokenClaims,
  FASTRANS_TOKEN_USE,
  CommonCodes,
  type ServerText,
} from '@hpc/contracts';
import { AppError } from '../app-error';
import { ServerKitText } from '../messages';

/** Longest lifetime a cluster token may have (issue: at most 12 hours). */
export const CLUSTER_TOKEN_MAX_TTL_S = 12 * 3600;
/**
 * The fast-transfer token is valid "for the day, like the Linux commands" (spec §7): until the end of the portal's
 * day, so up to 24 hours when made just after midnight. It carries no granted paths (home only). Capped at a day.
 */
export const DAY_TOKEN_MAX_TTL_S = 24 * 3600;
const maxTtlOf = (payload: { use?: unknown }) =>
  payload.use === FASTRANS_TOKEN_USE ? DAY_TOKEN_MAX_TTL_S : CLUSTER_TOKEN_MAX_TTL_S;

export interface VerifiedClusterToken extends ClusterTokenClaims {
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Issue time, seconds since the epoch (always present: the verifier refuses a token without it). */
  iat: number;
}

/**
 * Signs a per-cluster token (EdDSA) for `claims.aud` = clusterId. The portal calls this at login and on refresh;
 * tests use it to make tokens for efile.
 */
export async function signClusterToken(
  key: CryptoKey | KeyObject,
  kid: string,
  claims: ClusterTokenClaims,
  ttlSeconds = CLUSTER_TOKEN_MAX_TTL_S,
): Promise<string> {
  const ttl = Math.min(ttlSeconds, CLUSTER_TOKEN_MAX_TTL_S);
  const { sub, aud, ...rest } = claims;
  return (
    new SignJWT({ ...rest })
      .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' })
      .setIssuer(CLUSTER_TOKEN_ISSUER)
      .setSubject(sub)
      .setAudience(aud)
      // Unique per issue: a Linux command is revoked by its own digest, which two commands of the same claims signed
      // in the same second would otherwise share (EdDSA signatures are deterministic).
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
      .sign(key)
  );
}

export interface VerifierOptions {
  /** The cluster this efile serves: tokens for any other audience are refused. */
  clusterId: string;
  /** The portal's JWKS URL (scaled-out mode); fetched and cached, refetched on an unknown `kid`. */
  jwksUrl?: string;
  /** The portal's public keys in-process (all-in-one mode). */
  jwks?: () => JSONWebKeySet;
}

export interface ClusterTokenVerifier {
  /** Returns the claims, or throws AppError "1406" for a missing, tampered, expired, unsigned or foreign token. */
  verify(token: string | undefined): Promise<VerifiedClusterToken>;
}

/**
 * Why `jwtVerify` refused a token, said in both languages from the error's code (jose's messages are English only and
 * name the library's terms: "Invalid Compact JWS", "unexpected "aud" claim value").
 */
function whyRefused(e: unknown, clusterId: string): ServerText {
  const { code, claim } = (e ?? {}) as { code?: unknown; claim?: unknown };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return ServerKitText.tokenExpired;
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return claim === 'aud'
        ? ServerKitText.tokenForAnotherCluster(clusterId)
        : ServerKitText.invalidTokenClaims;
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
    case 'ERR_JWK_INVALID':
      return ServerKitText.tokenNotFromPortal;
    default:
      // The key set could not be had: the remote JWKS timed out, answered other than 200 or not a key set, or the
      // fetch itself failed.
      return ServerKitText.tokenKeysUnreadable;
  }
}

/**
 * The verifier efile uses on every call: checks signature (EdDSA only, so `alg: none` and HMAC forgeries with the
 * public key are refused), issuer, audience = this cluster, expiry, and the claims' shape.
 */
export function createClusterTokenVerifier(opts: VerifierOptions): ClusterTokenVerifier {
  let getKey: JWTVerifyGetKey;
  if (opts.jwksUrl) {
    getKey = createRemoteJWKSet(new URL(opts.jwksUrl), {
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
  } else if (opts.jwks) {
    const source = opts.jwks;
    getKey = (header, token) => createLocalJWKSet(source())(header, token);
  } else {
    throw new Error('createClusterTokenVerifier needs jwksUrl or jwks');
  }
  return {
    async verify(token) {
      if (!token) throw new AppError(CommonCodes.tokenWithoutUser, ServerKitText.missingToken);
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, getKey, {
          algorithms: ['EdDSA'],
          issuer: CLUSTER_TOKEN_ISSUER,
          audience: opts.clusterId,
          clockTolerance: 30,
        }));
      } catch (e) {
        throw new AppError(CommonCodes.tokenWithoutUser, whyRefused(e, opts.clusterId));
      }
      // `aud` may legally be an array; ours is always the one cluster id.
      const aud: unknown = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
      const claims: unknown = { ...payload, aud };
      if (!Value.Check(ClusterTokenClaims, claims) || typeof payload.exp !== 'number') {
        throw new AppError(CommonCodes.tokenWithoutUser, ServerKitText.invalidTokenClaims);
      }
      // The lifetime is capped here too, not only where tokens are signed: a validly signed token that claims a
      // longer life (a mis-set TTL, a leaked signing key used for a "forever" token) is refused. It must say when it
      // was issued, and neither its issue-to-expiry span nor its remaining life may exceed the cap.
      const nowS = Math.floor(Date.now() / 1000);
      const cap = maxTtlOf(payload);
      if (
        typeof payload.iat !== 'number' ||
        payload.exp - payload.iat > cap ||
        payload.exp - nowS > cap + 30
      ) {
        throw new AppError(
          CommonCodes.tokenWithoutUser,
          ServerKitText.tokenOverLifetimeCap(String(cap / 3600)),
        );
      }
      return { ...claims, exp: payload.exp, iat: payload.iat };
    },
  };
}
