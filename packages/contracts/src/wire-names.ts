/**
 * Plain names of the wire (cookies, headers, paths, the success code), apart from the schemas: a browser module that
 * needs only a name imports this small module, not a schema module whose TypeBox calls (and TypeBox itself) a
 * bundler must keep because it cannot tell they have no side effects. That kept the web's first load over budget.
 */

/** The `code` of every successful answer (envelope.ts). */
export const OK = '0';

/** The issuer the portal puts in `iss` of every cluster token. */
export const CLUSTER_TOKEN_ISSUER = 'hpc-portal';

/** `GET` on the portal, for efile instances only: `authorization: Bearer <EFILE_SERVICE_SECRET>`. */
export const OWNER_RIGHTS_PATH = '/api/internal/efile/owner-rights';

/** The session cookie (HttpOnly) and the readable CSRF cookie whose value goes back in the CSRF header. */
export const SESSION_COOKIE = 'hpc_session';
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The request-time header of spec §7: base64url(iv ‖ AES-256-GCM(key = SHA-256(phrase), `${phrase}|${Date.now()}`)).
 * The phrase is public (it ships in the web bundle): the header proves nothing about who sent the request, it only
 * lets the server refuse requests whose clock is more than `Limits.requestTimeSkewMs` off (docs/SECURITY.md).
 */
export const REQUEST_TIME_HEADER = 'x-request-token';
export const REQUEST_TIME_PHRASE = 'hpc-portal/request-time/v1';
