import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import {
  FastransLoginBody,
  FastransLoginResponse,
  FastransPermissionBody,
  FastransPermissionResponse,
  FastransClientId,
  FastransPresenceResponse,
  FastransRelayPollBody,
  FastransWebBody,
  FastransWebResponse,
  CommonCodes,
  PortalCodes,
} from '@hpc/contracts';
import { AppError, csrfCheck, installFormParser, ok, type AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';
import { fastransService, WebError } from './fastrans.service';
import { packageOrigins, packagePath, packageTail } from './client-package';
import { relayService } from './relay.service';
import { clientIdentity, clientPresence, LEGACY_CLIENT_ID } from './client-presence';

const tags = ['fastrans'];
/** The prefix under which the spec puts the model zoo's file-service calls. */
const PREFIX = '/model-zoo/proxy/efile/fastrans';

/**
 * Fast transfer on the portal (issue 11 §2): the page's login and permission check under the model-zoo
 * file-service prefix (session cookie + CSRF header), and the fast-transfer web server the client calls
 * (`POST /fastrans/api`, its own token).
 */
export async function fastransFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const { services, http } = app.identity;
  // Relative efile URLs ('/efile/<id>') are instances mounted on this very server: reach them on its own address.
  const selfBase = () => {
    const a = app.server.address() as AddressInfo | null;
    if (!a || typeof a !== 'object') return null;
    const host = a.address === '::' || a.address === '0.0.0.0' ? '127.0.0.1' : a.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${a.port}`;
  };
  // One record of the user's running clients, kept by the web server's heartbeat and the relay's poll alike.
  const presence = clientPresence(deps.kv);
  const service = fastransService(deps, services, selfBase, presence);
  const relay = relayService(deps.kv, presence);
  const Envelope = Type.Object({ code: Type.String(), msg: Type.String(), data: Type.Unknown() });
  // These calls change nothing on the server but hand out a token: the page's CSRF header is required all the same.
  const csrf = csrfCheck({
    applies: () => true,
    expected: async (req) => (await http.current(req))?.session.csrf_token ?? null,
  });

  await app.register(async (scope: AppServer) => {
    installFormParser(scope);
    scope.post(
      `${PREFIX}/login`,
      {
        preHandler: csrf,
        schema: { tags, body: FastransLoginBody, response: { 200: FastransLoginResponse } },
      },
      async (req) => {
        const live = await http.requireUser(req);
        return ok(await service.login(live.user.id, req.body.directory, req.body.clusterId || undefined));
      },
    );
    scope.post(
      `${PREFIX}/checkPermission`,
      {
        preHandler: csrf,
        schema: { tags, body: FastransPermissionBody, response: { 200: FastransPermissionResponse } },
      },
      async (req) => {
        const live = await http.requireUser(req);
        return ok({
          allowded: await service.canWrite(live.user.id, req.body.path, req.body.clusterId || undefined),
        });
      },
    );
    scope.get(
      `${PREFIX}/presence`,
      {
        schema: { tags, response: { 200: FastransPresenceResponse } },
      },
      async (req) => {
        const userId = (await http.requireUser(req)).user.id;
        return ok(await service.presence(userId, (client) => relay.polling(userId, client)));
      },
    );

    // The second path (docs/FASTRANS.md "The relay"): the page's action, carried to the user's client through its
    // outbound long poll; the answer is the client's own envelope. `client` names which of the user's clients (the
    // presence lists them); it is the relay's, not the action's, so it does not travel on.
    scope.post(
      `${PREFIX}/relay`,
      {
        preHandler: csrf,
        schema: {
          tags,
          body: Type.Object(
            {
              action: Type.String({ minLength: 1, maxLength: 32 }),
              client: Type.Optional(FastransClientId),
              // How long to wait for the client's answer (the page's detection asks briefly, client by client).
              wait: Type.Optional(Type.Integer({ minimum: 500, maximum: 25_000 })),
            },
            { additionalProperties: true },
          ),
          response: { 200: Envelope },
        },
      },
      async (req) => {
        const live = await http.requireUser(req);
        const { client, wait, ...m } = req.body;
        const { code, msg, data } = await relay.send(live.user.id, client, m, wait);
        return { code, msg, data };
      },
    );
    const RelayQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
    scope.post(
      '/fastrans/relay/poll',
      {
        schema: {
          tags,
          querystring: RelayQuery,
          body: FastransRelayPollBody,
          response: { 200: Envelope },
        },
      },
      async (req) => {
        try {
          const session = await service.webSession(req.query.token);
          return {
            code: '0',
            msg: '',
            data: await relay.poll(session.sub, clientIdentity(req.body), req.body.after),
          };
        } catch (e) {
          if (e instanceof WebError) return { code: e.code, msg: e.message, data: e.data };
          throw e;
        }
      },
    );
    scope.post(
      '/fastrans/relay/answer',
      {
        schema: {
          tags,
          querystring: RelayQuery,
          body: Type.Object({
            n: Type.Integer({ minimum: 1 }),
            client: Type.Optional(FastransClientId),
            answer: Type.Object({ code: Type.String(), msg: Type.String(), data: Type.Unknown() }),
          }),
          response: { 200: Envelope },
        },
      },
      async (req) => {
        try {
          const session = await service.webSession(req.query.token);
          await relay.answer(session.sub, req.body.client || LEGACY_CLIENT_ID, req.body.n, req.body.answer);
          return { code: '0', msg: '', data: null };
        } catch (e) {
          if (e instanceof WebError) return { code: e.code, msg: e.message, data: e.data };
          throw e;
        }
      },
    );

    // The client package, with this portal's origin written into its config file at download time.
    scope.get('/share/fasttrans-client.tar.gz', async (_req, reply) => {
      const file = packagePath();
      if (!file)
        throw new AppError(
          PortalCodes.notFound,
          'The fast-transfer client package is not built (npm run build)',
        );
      const tail = await packageTail(packageOrigins(deps.config.PUBLIC_URL, app.server.address()));
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
    scope.post(
      '/fastrans/api',
      {
        schema: {
          tags,
          body: FastransWebBody,
          querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }),
          response: { 200: FastransWebResponse },
        },
      },
      async (req) => {
        const { id, version, module, action, UK } = req.body;
        const answer = (data: unknown) => ({ id, code: '0', msg: '', data });
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
            // The client is shutting down but stays logged in (it resumes with this login when started again):
            // gone from the presence and the relay now, so the page does not wait on it.
            await forget(session.sub);
            return answer(null);
          }
          throw new WebError(CommonCodes.invalidInput, `Unknown call ${module}/${action}`);
        } catch (e) {
          if (e instanceof WebError) return { id, code: e.code, msg: e.message, data: e.data };
          throw e;
        }
      },
    );
  });
}
