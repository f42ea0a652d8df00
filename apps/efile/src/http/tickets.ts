import crypto from 'node:crypto';
import type { BrowserAction, BrowserTicketBody } from '@hpc/contracts';
import { AppError, type KvStore, type PresentedToken } from '@hpc/server-kit';
import type { TokenClaims } from '@hpc/cluster-kit';
import { CommonCodes } from '@hpc/contracts';
import { EfileText } from '../messages';

/** How long a browser ticket may be used: it is asked for right before the browser opens the URL. */
export const TICKET_TTL_MS = 60_000;

/** The query parameters a ticket is bound to: the GET must carry exactly these, with the same values. */
const BOUND = ['path', 'paths', 'downKey', 'name'] as const;
const boundOf = (q: Record<string, unknown>) =>
  JSON.stringify(BOUND.map((k) => (q[k] === undefined ? null : [q[k]].flat().map(String))));
const hash = (t: string) => crypto.createHash('sha256').update(t).digest('hex');

/** The token a ticket was asked with: its claims, and what the revocation check reads of it. */
export interface TicketToken {
  claims: TokenClaims;
  presented: PresentedToken;
}

interface Saved extends TicketToken {
  action: BrowserAction;
  bound: string;
  /** ms; never past the expiry of the token it was issued for. */
  until: number;
}

/**
 * Browser tickets (issue 10 §2.4): a download, zip or image preview is a URL the browser opens itself, so it cannot
 * carry the `token` header. Instead of putting the 12-hour cluster token on the address (where it lands in history,
 * proxy and server logs), the page asks for a ticket with the header and puts that on the address. A ticket is
 * random (stored only as its SHA-256, in the KvStore so any instance can redeem it), good for one action with
 * exactly the parameters it was issued for, for a minute at most, and gives the rights of the token it was asked
 * with, as they are at each use: the caller checks them again (auth.ts), so a ticket ends with its token's session,
 * its revoked day token or its disabled user, not a minute later (found from outside, 2026-12-01). It stays usable
 * within that minute (a download manager's Range requests, an image reloaded).
 */
export function createTickets(kv: KvStore) {
  return {
    async issue(token: TicketToken, body: BrowserTicketBody) {
      const ticket = crypto.randomBytes(24).toString('base64url');
      const until = Math.min(Date.now() + TICKET_TTL_MS, token.claims.exp * 1000);
      const saved: Saved = { ...token, action: body.action, bound: boundOf(body), until };
      await kv.set(`ticket:${hash(ticket)}`, JSON.stringify(saved), Math.max(1, until - Date.now()));
      return { ticket, expiresAt: until };
    },
    /** The token of a ticket for this action and these query parameters, or "1406". */
    async redeem(
      ticket: string,
      action: BrowserAction,
      query: Record<string, unknown>,
    ): Promise<TicketToken> {
      const raw = await kv.get(`ticket:${hash(ticket)}`);
      const saved = raw ? (JSON.parse(raw) as Saved) : null;
      if (!saved || saved.action !== action || saved.bound !== boundOf(query) || saved.until <= Date.now())
        throw new AppError(CommonCodes.tokenWithoutUser, EfileText.ticketInvalid);
      return { claims: saved.claims, presented: saved.presented };
    },
  };
}
export type Tickets = ReturnType<typeof createTickets>;
