import { TicketRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';

/** Browser tickets (http/tickets.ts): asked for with the token header, used as `?ticket=` by one browser GET. */
export function ticketRoutes(app: EfileApp, { auth }: EfileContext): void {
  addRoute(app, TicketRoutes.browserTicket, async (req) => ok(await auth.issueTicket(req, req.body)));
}
