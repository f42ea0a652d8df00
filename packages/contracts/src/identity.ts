import { Type, type Static } from 'typebox';

/**
 * Identity contracts. The per-cluster token is the one contract between portal (which signs it) and efile (which
 * verifies it): an EdDSA JWT with these claims, audience = clusterId, subject = portal user id, at most 12 h.
 */
export const ClusterTokenClaims = Type.Object({
  /** Portal user id. */
  sub: Type.String(),
  /** clusterId. */
  aud: Type.String(),
  /** The user's compute user name on that cluster. */
  cun: Type.String(),
  /** The compute user's home path on the cluster file system, e.g. /public/home/demo. */
  home: Type.String(),
  /** Further cluster paths the portal grants (shared storage, spec §7 queryMultiClusterAccessPath). */
  paths: Type.Array(Type.String()),
  /** Account status on that cluster: efile refuses file operations with "1007" when it is 'Disable'. */
  st: Type.Union([Type.Literal('Normal'), Type.Literal('Disable')]),
  /** Account expiry (ms since epoch) or null: the Linux commands of efile are valid until then at the latest. */
  exp_acct: Type.Union([Type.Integer(), Type.Null()]),
});
export type ClusterTokenClaims = Static<typeof ClusterTokenClaims>;

/** The issuer the portal puts in `iss` of every cluster token. */
export const CLUSTER_TOKEN_ISSUER = 'hpc-portal';
