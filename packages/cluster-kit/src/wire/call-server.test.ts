import http from 'node:http';
import net from 'node:net';
import type { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { handOffTarget } from '../worker/handoff';
import { MAX_PLAIN_ANSWER, callClient } from './call-client';
import { callServer, sendJson } from './call-server';
import { call, type CallScope, type CallTable, type CallTransport, type CustomCall } from './call-table';
import { fromWire, readJson, toWire, type WireError } from './wire-format';

/** A page laid out in the worker, written there on the client's connection when it can be handed over. */
interface Page {
  size: number;
  send(out: Writable): Promise<boolean>;
}
interface Demo {
  echo(s: CallScope, text: string): Promise<string>;
  /** A string of `n` bytes. */
  grow(s: CallScope, n: number): Promise<string>;
  /** A clean-up of something that may name no user. */
  drop(s: CallScope, id: string): Promise<void>;
  page(s: CallScope, text: string): Promise<Page>;
}

const dropped: string[] = [];
const pageCall: CustomCall<Demo['page'], Demo> = call.custom({
  client: (ctx) => async (s, text) => {
    const size = await ctx.json<number>(s, 'open', { json: { scope: ctx.wireScope(s), text } });
    return {
      size,
      send: async (out) => (await ctx.handOff(s, out, { scope: ctx.wireScope(s), text })).handed,
    };
  },
  server: (_impl, ctx) => ({
    routes: {
      open: async (req, res) => {
        const a = await readJson<{ scope: CallScope; text: string }>(req);
        ctx.scopeOf(a.scope);
        ctx.json(res, 200, { result: Buffer.byteLength(a.text) });
      },
    },
    serve: async (job, socket) => {
      const j = job as { scope: CallScope; text: string };
      ctx.scopeOf(j.scope);
      socket.end(j.text);
    },
  }),
});
const demoCalls = {
  echo: call.plain(),
  grow: call.plain(),
  drop: call.plain({ repeatable: true, skipWithoutUser: true }),
  page: pageCall,
} satisfies CallTable<Demo>;
const demo: Demo = {
  echo: async (_s, text) => text,
  grow: async (_s, n) => 'x'.repeat(n),
  drop: async (_s, id) => void dropped.push(id),
  page: () => Promise.reject(new Error('only through the wire')),
};

/** The worker's side served in this process, as the worker host would (errors as `{ error }`, status 500). */
const service = callServer(demoCalls, demo, { user: 'ann' });
const worker = http.createServer((req, res) => {
  service.handle(req, res).catch((e: unknown) => sendJson(res, 500, { error: toWire(e) }));
});
/** The front end's server, whose answers may be handed to the worker. */
const front = http.createServer();
afterAll(async () => {
  await new Promise((r) => worker.close(r));
  await new Promise((r) => front.close(r));
});
const portOf = async (s: http.Server) => {
  if (!s.listening) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as net.AddressInfo).port;
};

const requests: string[] = [];
/** `UserWorkers` in one process: requests over TCP, and a hand-off passes the socket straight to `serve`. */
const transport: CallTransport = {
  async request(user, route, opts) {
    requests.push(`${user} ${route}`);
    const port = await portOf(worker);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .request({ port, host: '127.0.0.1', path: route, method: 'POST' }, resolve)
        .on('error', reject)
        .end(JSON.stringify(opts.json ?? {})),
    );
    if (res.statusCode !== 200) {
      const parts: Buffer[] = [];
      for await (const c of res as AsyncIterable<Buffer>) parts.push(c);
      throw fromWire((JSON.parse(Buffer.concat(parts).toString()) as { error: WireError }).error);
    }
    return { res, done: () => undefined };
  },
  forget: () => undefined,
  async handOff(_user, out, job) {
    const target = handOffTarget(out);
    if (!target) return { handed: false };
    try {
      await service.serve(job, target.head, target.socket);
      return { handed: true };
    } catch (e) {
      return { handed: true, error: e as Error };
    }
  },
};
const client = callClient<Demo, typeof demoCalls>(demoCalls, transport);

describe('a call table on both sides of the wire (in one process)', () => {
  it('answers a plain call; one that skips a scope naming no user reaches no worker', async () => {
    expect(await client.echo({ cun: 'ann' }, 'hi')).toBe('hi');
    requests.length = 0;
    expect(await client.drop({ cun: '' }, 'old')).toBeUndefined();
    expect(requests).toEqual([]);
    await client.drop({ cun: 'ann' }, 'new');
    expect(dropped).toEqual(['new']);
  });

  it('refuses an answer larger than a plain call may bring, and the next call is answered', async () => {
    // Parsed on the service's one event loop: a user's 200 MB answer held everyone's requests (found from outside).
    await expect(client.grow({ cun: 'ann' }, MAX_PLAIN_ANSWER + 1)).rejects.toMatchObject({ code: '1011' });
    expect(await client.grow({ cun: 'ann' }, 1000)).toHaveLength(1000);
    expect(await client.echo({ cun: 'ann' }, 'after')).toBe('after');
  });

  it("hands a client's connection to the custom call that asked, which writes the answer itself", async () => {
    front.once('request', (_req, res: http.ServerResponse) => {
      void (async () => {
        const p = await client.page({ cun: 'ann' }, 'written by the worker');
        res.writeHead(200, { 'content-length': p.size });
        if (!(await p.send(res))) res.end('relayed');
      })();
    });
    const port = await portOf(front);
    const got = await new Promise<{ body: string; connection?: string }>((resolve, reject) =>
      http
        .get({ port, host: '127.0.0.1', path: '/' }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ body, connection: res.headers.connection }));
        })
        .on('error', reject),
    );
    expect(got).toEqual({ body: 'written by the worker', connection: 'close' });
  });

  it('refuses a hand-off for no call of the table, or for another user, and cuts that connection', async () => {
    const port = await portOf(front);
    const socketPair = async () => {
      const accepted = new Promise<net.Socket>((r) => front.once('connection', r));
      const c = net.connect(port, '127.0.0.1');
      return { server: await accepted, client: c };
    };
    const head = 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\nConnection: close\r\n\r\n';
    for (const message of [
      { call: 'echo', job: {} },
      { job: {} },
      { call: 'page', job: { scope: { cun: 'bob' }, text: 'x' } },
    ]) {
      const { server, client: c } = await socketPair();
      await expect(service.serve(message, head, server)).rejects.toThrow();
      expect(server.destroyed).toBe(true);
      c.destroy();
    }
  });
});
