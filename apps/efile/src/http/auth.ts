import type { FastifyRequest } from 'fastify';
import { CommonCodes, type BrowserAction, type BrowserTicketBody } from '@hpc/contracts';
import { AppError, assertPresentedNotRevoked, presentedOf } from '@hpc/server-kit';
import { createTokenCheck, type ServiceUser } from '@hpc/cluster-kit';
import type { EfileDeps } from '../deps';
import { createTickets, type TicketToken } from './tickets';
import { EfileText } from '../messages';

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

/** The user of a request: the kit's `ServiceUser` (sub, cun, home, roots, account expiry). */
export type EfileUser = ServiceUser;

/**
 * Authenticates each request once (onRequest) and keeps the user per request for the routes of this instance:
 * the cluster kit's token check (verified-token cache, claims to user, the rights of the moment for day tokens,
 * the revocation seam), with efile's own ways in on top: `efileAuth: 'none'` routes, `allowDisabled`, and the
 * browser's GETs (`?ticket=`, `?token=`).
 */
export function createAuth(deps: EfileDeps) {
  const users = new WeakMap<FastifyRequest, EfileUser>();
  const check = createTokenCheck({
    verifier: deps.verifier,
    homePattern: deps.config.EFILE_HOME_PATTERN,
    ownerRights: deps.ownerRights,
    now: deps.now,
    revocations: deps.revocations,
    acceptDayTokens: true, // the fast-transfer client's day token: efile's alone, the home only
  });
  const tickets = createTickets(deps.kv);
  /** The token of a request authenticated by one: what a ticket it asks for is issued on. */
  const tokens = new WeakMap<FastifyRequest, TicketToken>();

  const userOfRequest = (req: FastifyRequest): EfileUser => {
    const u = users.get(req);
    if (!u) throw new AppError(CommonCodes.tokenWithoutUser);
    return u;
  };

  return {
    async hook(req: FastifyRequest) {
      const cfg = req.routeOptions.config;
      if (cfg.efileAuth === 'none') return;
      const header = typeof req.headers.token === 'string' ? req.headers.token : '';
      const query = (req.query ?? {}) as Record<string, unknown>;
      if (!header && cfg.browserGet && typeof query.ticket === 'string') {
        // The rights of the ticket's token as they are now: what the token itself would get on this request.
        const t = await tickets.redeem(query.ticket, cfg.browserGet, query);
        await assertPresentedNotRevoked(deps.revocations, t.presented);
        users.set(req, await check.userOf(t.claims, { allowDisabled: cfg.allowDisabled === true }));
        return;
      }
      // `?token=` only where a browser cannot send the header; anywhere else a missing header is refused.
      const token = header || (cfg.browserGet && typeof query.token === 'string' ? query.token : undefined);
      const { claims, user } = await check.authenticate(token, { allowDisabled: cfg.allowDisabled === true });
      tokens.set(req, { claims, presented: presentedOf(token!, claims) });
      users.set(req, user);
    },
    user: userOfRequest,
    /** A browser ticket for the caller of this request (authenticated by the token header). */
    async issueTicket(req: FastifyRequest, body: BrowserTicketBody) {
      const token = tokens.get(req);
      if (token === undefined)
        throw new AppError(CommonCodes.tokenWithoutUser, EfileText.ticketForTokenHeaderOnly);
      return tickets.issue(token, body);
    },
  };
}
export type Auth = ReturnType<typeof createAuth>;
