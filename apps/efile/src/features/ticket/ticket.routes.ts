import { BrowserTicketBody, BrowserTicketResponse } from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';

/** Browser tickets (http/tickets.ts): asked for with the token header, used as `?ticket=` by one browser GET. */
export function ticketRoutes(app: EfileApp, { auth }: EfileContext): void {
  app.post(
    '/browserTicket.action',
    { schema: { body: BrowserTicketBody, response: { 200: BrowserTicketResponse } } },
    async (req) => ok(await auth.issueTicket(req, req.body)),
  );
}
