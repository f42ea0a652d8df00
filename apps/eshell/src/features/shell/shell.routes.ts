import { EshellCodes, EshellRoutes } from '@hpc/contracts';
import { AppError, addRoute, ok } from '@hpc/server-kit';
import type { EshellApp, EshellContext } from '../../http/context';
import { SessionManager } from '../../sessions/session-manager';

/**
 * The shell's calls (issue 26): a one-time ticket for the socket (a new session on a configured login node, or the
 * user's running one), the user's sessions, and closing one (a closed tab ends its session at once).
 */
export function shellRoutes(app: EshellApp, ctx: EshellContext): void {
  const { deps } = ctx;

  addRoute(app, EshellRoutes.ticket, async (req) => {
    const user = ctx.user(req);
    const owner = { sub: user.sub, cun: user.cun };
    const body = req.body;
    let sessionId: string;
    let create = null;
    if (body.sessionId) {
      sessionId = deps.sessions.ownedBy(body.sessionId, owner).id;
    } else {
      // The first node of the configuration by default; only a configured node (its host key pinned) is reachable.
      const node = body.node
        ? deps.config.loginNodes.find((n) => n.address === body.node)
        : deps.config.loginNodes[0];
      if (!node) throw new AppError(EshellCodes.node);
      await deps.sessions.assertRoom(owner);
      sessionId = SessionManager.newId();
      create = { node: node.address, cwd: body.cwd, cols: body.cols ?? 80, rows: body.rows ?? 24 };
    }
    const header = req.headers.token;
    const ticket = deps.tickets.issue({
      ...owner,
      token: typeof header === 'string' ? header : '',
      claims: ctx.claims(req),
      sessionId,
      create,
    });
    return ok({ ticket, sessionId, expiresInMs: deps.tickets.ttl });
  });

  addRoute(app, EshellRoutes.sessions, async (req) => {
    const user = ctx.user(req);
    const sessions = deps.sessions.listOf({ sub: user.sub, cun: user.cun }).map((s) => ({
      sessionId: s.id,
      node: s.node.address,
      startedAt: s.startedAt,
      attached: s.client !== null,
    }));
    return ok({ sessions });
  });

  addRoute(app, EshellRoutes.close, async (req) => {
    const user = ctx.user(req);
    deps.sessions.ownedBy(req.body.sessionId, { sub: user.sub, cun: user.cun }).end('closed');
    return ok(null);
  });
}
