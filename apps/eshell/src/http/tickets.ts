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
 * Most tickets one user holds at a time: a page asks for one per terminal it opens, used within seconds. Past it the
 * user's oldest is dropped, so a script asking in a loop cannot grow the service's memory (and each issue's sweep)
 * without bound in the 30 s a ticket lives.
 */
export const MAX_TICKETS_PER_USER = 32;

/**
 * One-time tickets of the terminal's socket (issue 26 §3): issued by an authenticated POST, good for `ttlMs`, taken
 * once (a second use, or a use after the deadline, finds nothing). The socket carries the ticket in its first
 * message: no token, and no ticket either, is ever in an address or a log line.
 */
export class Tickets {
  private readonly grants = new Map<string, { grant: TicketGrant; until: number }>();
  /** Each user's outstanding tickets, oldest first. */
  private readonly bySub = new Map<string, string[]>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  issue(grant: TicketGrant): string {
    this.prune();
    const ticket = randomBytes(24).toString('base64url');
    const mine = this.bySub.get(grant.sub) ?? [];
    while (mine.length >= MAX_TICKETS_PER_USER) this.grants.delete(mine.shift()!);
    mine.push(ticket);
    this.bySub.set(grant.sub, mine);
    this.grants.set(ticket, { grant, until: this.now() + this.ttlMs });
    return ticket;
  }

  take(ticket: unknown): TicketGrant | null {
    if (typeof ticket !== 'string') return null;
    const entry = this.grants.get(ticket);
    if (entry) this.forget(ticket, entry.grant.sub);
    if (!entry || entry.until < this.now()) return null;
    return entry.grant;
  }

  get ttl() {
    return this.ttlMs;
  }

  /** Outstanding tickets of one user (tests). */
  heldBy(sub: string): number {
    return this.bySub.get(sub)?.length ?? 0;
  }

  private forget(ticket: string, sub: string) {
    this.grants.delete(ticket);
    const mine = this.bySub.get(sub);
    const i = mine?.indexOf(ticket) ?? -1;
    if (i >= 0) mine!.splice(i, 1);
    if (mine?.length === 0) this.bySub.delete(sub);
  }

  private prune() {
    const now = this.now();
    for (const [k, v] of this.grants) if (v.until < now) this.forget(k, v.grant.sub);
  }
}
