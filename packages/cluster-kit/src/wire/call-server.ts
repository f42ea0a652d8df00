import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import { finished } from 'node:stream/promises';
import { CommonCodes, PortalCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { ClusterKitText } from '../messages';
import type {
  AnyCall,
  CallScope,
  CallSpec,
  CallTable,
  CustomRoute,
  CustomServe,
  CustomServerContext,
} from './call-table';
import { decodeArgsHeader, readJson, toWire } from './wire-format';

/** The worker's request handler: answers `/call/<name>` of the table's calls, and nothing else. */
export type CallHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The worker's side of a call table, what its entry's `start` returns (a `WorkerService`). */
export interface CallService {
  handle: CallHandler;
  /** A handed-over client connection, for the custom call that asked for it (`ctx.handOff`); others are refused. */
  serve(message: unknown, head: string, socket: net.Socket): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const b = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': b.length });
  res.end(b);
}

/** JSON has no undefined: an omitted optional argument arrives as null and is given back as undefined. */
const unNull = (args: unknown): unknown[] =>
  (Array.isArray(args) ? (args as unknown[]) : []).map((a) => (a === null ? undefined : a));

/** Waits until the front end took what was written (a slow reader holds the producer back) or left. */
const drained = (res: ServerResponse) =>
  new Promise<void>((r) => {
    const on = () => {
      res.off('drain', on);
      res.off('close', on);
      r();
    };
    res.once('drain', on);
    res.once('close', on);
  });

/**
 * The worker's dispatcher of a call table (issue 23 §1), for the worker of `user`: each request names a call of the
 * table (own keys only: nothing inherited, nothing undeclared) and is answered in the shape of the call's kind by
 * `impl`'s method of that name. A scope of any other user is refused: the front end chose this worker for the
 * scope's user, and a worker acts for that user only. A thrown error becomes `{ error }` with status 500 (or cuts
 * the answer when its head was sent already: the front end then sees the worker gone, never a wrong answer).
 * Handed-over connections go to the `serve` of the custom call that handed them.
 */
export function callServer<Impl, T extends CallTable<Impl>>(
  table: T,
  impl: Impl,
  opts: { user: string },
): CallService {
  const ctx: CustomServerContext = {
    user: opts.user,
    scopeOf<S extends CallScope>(scope: S | undefined): S {
      if (!scope || typeof scope !== 'object' || scope.cun !== opts.user)
        throw new AppError(CommonCodes.noUserPermission, ClusterKitText.workerForAnotherUser);
      return scope;
    },
    json: sendJson,
  };
  const method = (name: string): AnyCall => {
    const fn = impl[name as keyof Impl] as unknown;
    if (typeof fn !== 'function') throw new Error(`the worker's implementation has no method ${name}`);
    return (fn as AnyCall).bind(impl);
  };

  type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  const routes = new Map<string, Route>();
  const serves = new Map<string, CustomServe>();
  for (const [name, spec] of Object.entries(table) as [string, CallSpec][]) {
    if (spec.kind === 'custom') {
      const server = spec.server(impl as never, ctx);
      const subs: Record<string, CustomRoute> = server.routes;
      for (const [sub, route] of Object.entries(subs)) routes.set(`${name}/${sub}`, route);
      if (server.serve) serves.set(name, server.serve);
    } else routes.set(name, routeOf(method(name), spec, ctx));
  }

  return {
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://worker');
      const key = url.pathname.startsWith('/call/')
        ? url.pathname.slice(6).split('/').map(decodeURIComponent).join('/')
        : '';
      const route = routes.get(key);
      if (!route || req.method !== 'POST') throw new AppError(PortalCodes.notFound);
      await route(req, res, url);
    },
    serve: (message, head, socket) => serveHanded(serves, message, head, socket),
  };
}

/**
 * Writes a whole answer on a handed-over client connection: the front end's head, then the call's bytes, then the
 * end of the connection (the head says `Connection: close`). A failure after the head cuts the connection, as a
 * relay would: the client sees fewer bytes than the Content-Length it was promised, never a wrong answer.
 */
async function serveHanded(
  serves: Map<string, CustomServe>,
  message: unknown,
  head: string,
  socket: net.Socket,
): Promise<void> {
  const { call, job } = (message ?? {}) as { call?: unknown; job?: unknown };
  const serve = typeof call === 'string' ? serves.get(call) : undefined;
  try {
    if (!serve) throw new AppError(PortalCodes.notFound, ClusterKitText.noConnectionCall);
    socket.write(Buffer.from(head, 'latin1'));
    await serve(job, socket);
    // The writers end the connection when done (or cut it when the client left): wait for the last byte.
    await finished(socket, { readable: false });
    // A client that keeps its side open would keep this descriptor: read to its end, or give up after 30 s.
    socket.setTimeout(30_000, () => socket.destroy());
    socket.resume();
  } catch (e) {
    socket.destroy();
    throw e;
  }
}

function routeOf(fn: AnyCall, spec: Exclude<CallSpec, { kind: 'custom' }>, ctx: CustomServerContext) {
  const read = async (req: IncomingMessage) => {
    const { scope, args } = await readJson<{ scope?: CallScope; args?: unknown }>(req);
    return { scope: ctx.scopeOf(scope), args: unNull(args) };
  };
  switch (spec.kind) {
    case 'plain':
      return async (req: IncomingMessage, res: ServerResponse) => {
        const { scope, args } = await read(req);
        sendJson(res, 200, { result: (await fn(scope, ...args)) ?? null });
      };
    case 'upload':
      return async (req: IncomingMessage, res: ServerResponse) => {
        const a = decodeArgsHeader<{ scope?: CallScope; args?: unknown }>(req);
        const args = unNull(a.args);
        args.splice(spec.body, 0, req);
        sendJson(res, 200, { result: (await fn(ctx.scopeOf(a.scope), ...args)) ?? null });
      };
    case 'download':
      return async (req: IncomingMessage, res: ServerResponse) => {
        const { scope, args } = await read(req);
        const buf = (await fn(scope, ...args)) as Buffer;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': buf.length });
        res.end(buf);
      };
    case 'lines':
      // Items as JSON lines (any count, never all in memory), then `done` or the error that stopped them.
      return async (req: IncomingMessage, res: ServerResponse) => {
        const { scope, args } = await read(req);
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        let gone = false;
        res.on('close', () => (gone = true));
        try {
          for await (const e of fn(scope, ...args) as AsyncIterable<unknown>) {
            if (gone) return;
            if (!res.write(JSON.stringify({ e }) + '\n')) await drained(res);
          }
          res.end(JSON.stringify({ done: true }) + '\n');
        } catch (e) {
          res.end(JSON.stringify({ error: toWire(e) }) + '\n');
        }
      };
    case 'progress':
      // Progress as JSON lines; the front end closing the request aborts the work.
      return async (req: IncomingMessage, res: ServerResponse) => {
        const { scope, args } = await read(req);
        const ac = new AbortController();
        res.on('close', () => ac.abort());
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        try {
          await fn(
            scope,
            ...args,
            (p: unknown) => res.write(JSON.stringify({ progress: p }) + '\n'),
            ac.signal,
          );
          res.end(JSON.stringify({ done: true }) + '\n');
        } catch (e) {
          res.end(JSON.stringify({ error: toWire(e) }) + '\n');
        }
      };
  }
}
