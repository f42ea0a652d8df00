import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CommonCodes,
  FastransCodes,
  FastransPageRoutes,
  FastransWebRoutes,
  PortalCodes,
} from '@hpc/contracts';
import { AppError, addRoute, localisedRefusal, ok, type AppServer } from '@hpc/server-kit';
import type { SessionHttp } from '../identity';
import { packagePath, packageTail } from './client-package';
import { clientIdentity, LEGACY_CLIENT_ID } from './client-presence';
import { WebError, type FastransService } from './fastrans.service';
import type { RelayService } from './relay.service';
import { PortalText } from '../../messages';

/**
 * The page's fast-transfer calls (a `user` route group: the session, and the CSRF header on the POSTs, which hand out
 * a token or reach the user's client though they change nothing on the server).
 */
export function fastransPageRoutes(
  app: AppServer,
  service: FastransService,
  relay: RelayService,
  http: SessionHttp,
): void {
  addRoute(app, FastransPageRoutes.login, async (req) =>
    ok(
      await service.login(
        http.live(req).user.id,
        http.live(req).sid,
        req.body.directory,
        req.body.clusterId || undefined,
      ),
    ),
  );

  addRoute(app, FastransPageRoutes.checkPermission, async (req) =>
    ok({
      allowded: await service.canWrite(
        http.live(req).user.id,
        req.body.path,
        req.body.clusterId || undefined,
      ),
    }),
  );

  // Before the page sends a local client anything else (a day token above all): is it the user's own client?
  addRoute(app, FastransPageRoutes.verifyClient, async (req) =>
    ok({ ok: await service.verifyClient(http.live(req).user.id, req.body.sign, req.body.proof) }),
  );

  addRoute(app, FastransPageRoutes.revokeClientKey, async (req) =>
    ok(await service.revokeClientKey(http.live(req).user.id)),
  );

  addRoute(app, FastransPageRoutes.presence, async (req) => {
    const userId = http.live(req).user.id;
    return ok(await service.presence(userId, (client) => relay.polling(userId, client)));
  });

  // The second path (docs/FASTRANS.md "The relay"): the page's action, carried to the user's client through its
  // outbound long poll; the answer is the client's own envelope. `client` and `wait` are the relay's, not the
  // action's, so they do not travel on.
  addRoute(app, FastransPageRoutes.relay, async (req, reply) => {
    const { client, wait, ...m } = req.body;
    const { code, msg, zh, data } = await relay.send(http.live(req).user.id, client, m, wait);
    return said(req, reply, { code, msg, zh: zh ?? null, data });
  });
}

/** An answer with a result code, a refusal's message in the request's language (`localisedRefusal`). */
function said(
  req: FastifyRequest,
  reply: FastifyReply,
  a: { code: string; msg: string; zh: string | null; data: unknown },
) {
  if (a.code === FastransCodes.ok) return { code: a.code, msg: a.msg, data: a.data };
  return { code: a.code, msg: localisedRefusal(req, reply, a.code, a.msg, a.zh), data: a.data };
}

/** A web-server refusal as the client's answer (HTTP 200 with its result code). */
const refusal = (e: unknown, req: FastifyRequest, reply: FastifyReply) => {
  if (e instanceof WebError)
    return said(req, reply, { code: e.code, msg: e.message, zh: e.zh, data: e.data });
  throw e;
};

/**
 * The client's own calls (a `public` route group: no session, its web token in `?token=`): the fast-transfer web
 * server, the relay's poll and answer, and the client package.
 */
export function fastransClientRoutes(
  app: AppServer,
  service: FastransService,
  relay: RelayService,
  origins: () => string[],
  http: SessionHttp,
): void {
  addRoute(app, FastransWebRoutes.relayPoll, async (req, reply) => {
    try {
      const session = await service.webSession(req.query.token);
      return {
        code: FastransCodes.ok,
        msg: '',
        data: await relay.poll(session.sub, clientIdentity(req.body), req.body.after),
      };
    } catch (e) {
      return refusal(e, req, reply);
    }
  });

  addRoute(app, FastransWebRoutes.relayAnswer, async (req, reply) => {
    try {
      const session = await service.webSession(req.query.token);
      await relay.answer(session.sub, req.body.client || LEGACY_CLIENT_ID, req.body.n, req.body.answer);
      return { code: FastransCodes.ok, msg: '', data: null };
    } catch (e) {
      return refusal(e, req, reply);
    }
  });

  // The client package, with this portal's origin written into its config file at download time, and the client
  // key of the user who downloads it (the page's link carries the session cookie). Without a session the package
  // has no key: the page does not use such a client directly (docs/FASTRANS.md "Security").
  addRoute(app, FastransWebRoutes.clientPackage, async (req, reply) => {
    const file = packagePath();
    if (!file) throw new AppError(PortalCodes.notFound, PortalText.clientPackageNotBuilt);
    const user = (await http.current(req))?.user;
    const tail = await packageTail(origins(), user ? await service.clientKey(user.id) : undefined);
    const size = fs.statSync(file).size;
    async function* body() {
      for await (const chunk of fs.createReadStream(file!, { highWaterMark: 1024 * 1024 }))
        yield chunk as Buffer;
      yield tail;
    }
    return reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', 'attachment; filename="fasttrans-client.tar.gz"')
      .header('content-length', String(size + tail.length))
      .header('cache-control', 'no-store')
      .send(Readable.from(body()));
  });

  // The fast-transfer web server: JSON bodies, answers always HTTP 200 with the client's result codes.
  addRoute(app, FastransWebRoutes.api, async (req, reply) => {
    const { id, version, module, action, UK } = req.body;
    const answer = (data: unknown) => ({ id, code: FastransCodes.ok, msg: '', data });
    /** This client no longer calls (logged out or stopped): out of the user's presence and relay at once. */
    const forget = (sub: string) => {
      const client = clientIdentity(req.body).id;
      return Promise.all([relay.gone(sub, client), service.absent(sub, client)]);
    };
    try {
      if (module === 'user' && action === 'login') return answer(await service.webLogin(UK, version));
      if (module === 'user' && action === 'logout') {
        // Relay only while logged in: the user's page stops seeing the client as running or queueing for it.
        const leaving = await service.webSession(req.query.token).catch(() => null);
        await service.webLogout(req.query.token);
        if (leaving) await forget(leaving.sub);
        return answer(null);
      }
      const session = await service.webSession(req.query.token);
      if (module === 'server' && action === 'list')
        return answer({ servers: await service.servers(session) });
      if (module === 'client' && action === 'heartbeat') {
        await service.heartbeat(session, clientIdentity(req.body));
        return answer(null);
      }
      if (module === 'client' && action === 'stop') {
        // The client is shutting down but stays logged in (it resumes with this login when started again): gone
        // from the presence and the relay now, so the page does not wait on it.
        await forget(session.sub);
        return answer(null);
      }
      throw new WebError(CommonCodes.invalidInput, PortalText.webUnknownCall(`${module}/${action}`));
    } catch (e) {
      return { id, ...refusal(e, req, reply) };
    }
  });
}
