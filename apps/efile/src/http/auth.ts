import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { CommonCodes, FASTRANS_TOKEN_USE, type BrowserAction, type BrowserTicketBody } from '@hpc/contracts';
import { AppError, assertNotRevoked } from '@hpc/server-kit';
import type { EfileDeps } from '../deps';
import type { UserScope } from '../fs/path-resolver';
import { ensureDemoHome } from '../fs/demo-home';
import { refusalOf } from './owner-rights';
import { createTickets } from './tickets';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'user' (default): the portal's cluster token; 'none': health check, anonymous share and scoped-token calls. */
    efileAuth?: 'user' | 'none';
    /** Calls a disabled account may still make (initInfo shows the user who they are). */
    allowDisabled?: boolean;
    /**
     * A GET the browser opens itself (download, zip, image preview): a browser cannot add the `token` header to a
     * navigation or an `<img>`, so these alone also accept `?ticket=` (see tickets.ts) and `?token=`. Every other
     * call takes the token from the header only, so it is never on an address (POSTs above all).
     */
    browserGet?: BrowserAction;
  }
}

export interface EfileUser extends UserScope {
  sub: string;
  cun: string;
  home: string;
  /** Account expiry (ms) or null. */
  expAcct: number | null;
}

type Claims = Awaited<ReturnType<EfileDeps['verifier']['verify']>>;

/** How long a verified token is taken on trust again without a new signature check. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 1000;

/**
 * Authenticates each request once (onRequest) and keeps the user per request for the routes of this instance.
 * A chunked upload sends two requests per chunk with the same token; the EdDSA check (jose + WebCrypto, a hop to
 * the thread pool) was ~9 % of the server's time per chunk in a profile. So a token that verified is remembered
 * (by its exact string) for at most a minute and never past its own expiry: the claims are those the signature
 * covered, and the verifier caches the portal's keys for ten minutes anyway. Failures are never remembered.
 */
export function createAuth(deps: EfileDeps) {
  const users = new WeakMap<FastifyRequest, EfileUser>();
  const seeded = new Set<string>();
  // Wall-clock time, as the tokens' own `exp` is: an entry may never outlive the token it stands for.
  const verified = new LRUCache<string, Claims>({
    max: VERIFIED_MAX,
    ttl: VERIFIED_TTL_MS,
    perf: { now: () => Date.now() },
    ttlResolution: 0, // read the clock on every look-up, never a cached reading
  });
  const verify = async (token: string | undefined): Promise<Claims> => {
    if (!token) return deps.verifier.verify(token); // refuses: "1406"
    let claims = verified.get(token);
    if (!claims) {
      claims = await deps.verifier.verify(token);
      // Never past the token's own expiry (a token with no life left is not kept).
      const maxAge = Math.min(VERIFIED_TTL_MS, claims.exp * 1000 - Date.now());
      if (maxAge > 0) verified.set(token, claims, { ttl: maxAge });
    }
    // On every request, cached signature or not: the session ended, the user disabled, the day token revoked.
    await assertNotRevoked(deps.revocations, token, claims);
    return claims;
  };
  const tickets = createTickets(deps.kv);
  const exps = new WeakMap<FastifyRequest, number>();

  const fromClaims = (claims: Claims): EfileUser => {
    const home = claims.home || deps.config.EFILE_HOME_PATTERN.replace('{user}', claims.cun);
    return {
      sub: claims.sub,
      cun: claims.cun,
      home,
      roots: [home, ...claims.paths],
      expAcct: claims.exp_acct,
    };
  };
  /**
   * The user a token stands for. The fast-transfer client's day token lives up to 24 h in a script or a shell
   * history, so, like a Linux command, it carries the rights of the moment rather than those of the day it was
   * made: a disabled portal user or account, an ended account, a changed compute user or a withdrawn folder stop
   * it at once (the portal's answer, on every use: no cache).
   */
  const userOf = async (claims: Claims, allowDisabled: boolean): Promise<EfileUser> => {
    if (claims.st === 'Disable' && !allowDisabled) throw new AppError(CommonCodes.userFrozen);
    if (claims.use !== FASTRANS_TOKEN_USE) return fromClaims(claims);
    const rights = await deps.ownerRights(claims.sub);
    const refused = refusalOf(rights, claims.cun, deps.now());
    if (refused === 'no-user')
      throw new AppError(CommonCodes.tokenWithoutUser, 'This token is no longer valid: log in again');
    if (refused === 'disabled' && !allowDisabled) throw new AppError(CommonCodes.userFrozen);
    if (refused === 'expired') throw new AppError(CommonCodes.userFrozen, 'The account has expired');
    return fromClaims({ ...claims, ...rights! });
  };

  const userOfRequest = (req: FastifyRequest): EfileUser => {
    const u = users.get(req);
    if (!u) throw new AppError(CommonCodes.tokenWithoutUser);
    return u;
  };

  return {
    async hook(req: FastifyRequest) {
      const cfg = req.routeOptions.config;
      if (cfg.efileAuth === 'none') return;
      const header = req.headers.token;
      const query = (req.query ?? {}) as Record<string, unknown>;
      let user: EfileUser;
      if (typeof header === 'string' && header) {
        const claims = await verify(header);
        user = await userOf(claims, cfg.allowDisabled === true);
        exps.set(req, claims.exp);
      } else if (cfg.browserGet && typeof query.ticket === 'string') {
        user = await tickets.redeem(query.ticket, cfg.browserGet, query);
      } else {
        // `?token=` only where a browser cannot send the header; anywhere else a missing header is refused.
        const claims = await verify(
          cfg.browserGet && typeof query.token === 'string' ? query.token : undefined,
        );
        user = await userOf(claims, cfg.allowDisabled === true);
        exps.set(req, claims.exp);
      }
      if (deps.config.EFILE_DEMO && !seeded.has(`${user.sub}|${user.roots.join('|')}`)) {
        await ensureDemoHome(deps.resolver, user, deps.config);
        seeded.add(`${user.sub}|${user.roots.join('|')}`);
      }
      users.set(req, user);
    },
    user: userOfRequest,
    /** A browser ticket for the caller of this request (authenticated by the token header). */
    async issueTicket(req: FastifyRequest, body: BrowserTicketBody) {
      const exp = exps.get(req);
      if (exp === undefined)
        throw new AppError(CommonCodes.tokenWithoutUser, 'A ticket is issued for the token header only');
      return tickets.issue(userOfRequest(req), exp, body);
    },
  };
}
export type Auth = ReturnType<typeof createAuth>;
