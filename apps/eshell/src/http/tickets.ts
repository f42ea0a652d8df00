import { randomBytes } from 'node:crypto';
import type { TokenClaims } from '@hpc/cluster-kit';

/** What a ticket opens: a new session on a node, or the user's running one again. */
export interface TicketGrant {
  sub: string;
  cun: string;
  /** The token the ticket was issued on, and its claims: the revocation store is asked about them while it runs. */
  token: string;
  claims: TokenClaims;
  sessionId: string;
  create: { node: string; cwd?: string; cols: number; rows: number } | null;
}

/**
 * One-time tickets of the terminal's socket (issue 26 §3): issued by an authenticated POST, good for `ttlMs`, taken
 * once (a second use, or a use after the deadline, finds nothing). The socket carries the ticket in its first
 * message: no token, and no ticket either, is ever in an address or a log line.
 */
export class Tickets {
  private readonly grants = new Map<string, { grant: TicketGrant; until: number }>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  issue(grant: TicketGrant): string {
    this.prune();
    const ticket = randomBytes(24).toString('base64url');
    this.grants.set(ticket, { grant, until: this.now() + this.ttlMs });
    return ticket;
  }

  take(ticket: unknown): TicketGrant | null {
    if (typeof ticket !== 'string') return null;
    const entry = this.grants.get(ticket);
    this.grants.delete(ticket);
    if (!entry || entry.until < this.now()) return null;
    return entry.grant;
  }

  get ttl() {
    return this.ttlMs;
  }

  private prune() {
    const now = this.now();
    for (const [k, v] of this.grants) if (v.until < now) this.grants.delete(k);
  }
}
