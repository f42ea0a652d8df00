import { describe, expect, it } from 'vitest';
import { MAX_TICKETS_PER_USER, Tickets, type TicketGrant } from './tickets';

const grantOf = (sub: string): TicketGrant => ({
  sub,
  cun: sub,
  token: 't',
  claims: {} as TicketGrant['claims'],
  sessionId: 's',
  create: null,
});

describe("E-Shell's one-time tickets", () => {
  it('opens once, and not after its time', () => {
    let t = 0;
    const tickets = new Tickets(30_000, () => t);
    const a = tickets.issue(grantOf('u1'));
    expect(tickets.take(a)?.sub).toBe('u1');
    expect(tickets.take(a)).toBeNull();
    const b = tickets.issue(grantOf('u1'));
    t = 30_001;
    expect(tickets.take(b)).toBeNull();
    expect(tickets.heldBy('u1')).toBe(0);
  });

  it("keeps at most a user's limit outstanding, dropping the oldest; others' tickets are untouched", () => {
    const tickets = new Tickets();
    const other = tickets.issue(grantOf('u2'));
    const mine = Array.from({ length: 10_000 }, () => tickets.issue(grantOf('u1')));
    expect(tickets.heldBy('u1')).toBe(MAX_TICKETS_PER_USER);
    expect(tickets.take(mine[0])).toBeNull();
    expect(tickets.take(mine[mine.length - MAX_TICKETS_PER_USER - 1])).toBeNull();
    expect(tickets.take(mine[mine.length - MAX_TICKETS_PER_USER])?.sub).toBe('u1');
    expect(tickets.take(mine[mine.length - 1])?.sub).toBe('u1');
    expect(tickets.take(other)?.sub).toBe('u2');
    expect(tickets.heldBy('u1')).toBe(MAX_TICKETS_PER_USER - 2);
  });
});
