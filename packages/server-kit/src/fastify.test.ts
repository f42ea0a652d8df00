import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { createServer, type AppServer } from './fastify';
import { installFormParser } from './form-body';

describe('the services’ HTTP server', () => {
  let app: AppServer | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('behind a proxy takes the address that proxy saw, never one the client wrote into X-Forwarded-For', async () => {
    app = createServer({ logLevel: 'silent', trustProxy: true });
    app.get('/ip', async (req) => ({ ip: req.ip }));
    const ip = async (xff?: string) =>
      (
        await app!.inject({
          url: '/ip',
          remoteAddress: '127.0.0.1',
          headers: xff ? { 'x-forwarded-for': xff } : {},
        })
      ).json<{ ip: string }>().ip;
    // nginx's $proxy_add_x_forwarded_for: what the client sent, then the address nginx saw.
    expect(await ip('10.9.8.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await ip('203.0.113.7')).toBe('203.0.113.7');
    expect(await ip()).toBe('127.0.0.1');
    await app.close();
    app = createServer({ logLevel: 'silent' });
    app.get('/ip', async (req) => ({ ip: req.ip }));
    expect(await ip('10.9.8.1')).toBe('127.0.0.1');
  });

  /** A POST whose body comes `bytes` at a time every `everyMs`: resolves with how the connection ended. */
  const trickle = (
    port: number,
    url: string,
    length: number,
    everyMs: number,
    bytes: number,
    keepAlive = false,
  ) =>
    new Promise<'dropped' | 'answered' | 'ended'>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      let sent = 0;
      let answer = '';
      const timer = setInterval(() => {
        if (sent >= length) return clearInterval(timer);
        const n = Math.min(bytes, length - sent);
        s.write('x'.repeat(n));
        sent += n;
      }, everyMs);
      s.on('data', (d: Buffer) => (answer += d.toString()));
      s.on('error', () => undefined);
      s.on('close', () => {
        clearInterval(timer);
        // 'ended': answered with a refusal, then the connection closed before the body was all sent.
        const status = answer.slice(9, 12);
        resolve(status === '200' ? 'answered' : status && sent < length ? 'ended' : 'dropped');
      });
      s.write(
        `POST ${url} HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\n` +
          `content-length: ${length}\r\n${keepAlive ? '' : 'connection: close\r\n'}\r\n`,
      );
    });

  it('drops a body that trickles in; a steady one, and one the server is slow to read, pass', async () => {
    app = createServer({ logLevel: 'silent', slowBody: { windowMs: 150, minBytes: 64 } });
    app.addContentTypeParser('application/octet-stream', (_req, _payload, done) => done(null));
    const readAll = async (raw: NodeJS.ReadableStream) => {
      let n = 0;
      for await (const c of raw) n += (c as Buffer).length;
      return n;
    };
    app.post('/read', async (req) => ({ n: await readAll(req.raw) }));
    // Refused before its body is read: the rest of the body is read to be thrown away, at whatever pace.
    app.post('/refuse', async (_req, reply) => reply.status(401).send({ code: '401' }));
    // The handler waits (a lock, a disk) before it reads: the client's bytes wait in the buffers, not its fault.
    app.post('/late', async (req) => {
      await new Promise((r) => setTimeout(r, 700));
      return { n: await readAll(req.raw) };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const [slow, steady, late, refused] = await Promise.all([
      trickle(port, '/read', 1000, 100, 1),
      trickle(port, '/read', 40_000, 20, 1000),
      trickle(port, '/late', 4_000_000, 5, 200_000),
      // Fast enough for the rate (100 bytes per 10 ms), but far too long: 40 s at that pace.
      trickle(port, '/refuse', 400_000, 10, 100, true),
    ]);
    expect({ slow, steady, late, refused }).toEqual({
      slow: 'dropped',
      steady: 'answered',
      late: 'answered',
      refused: 'ended',
    });
  });
});

describe('types of what a request carries', () => {
  let app: AppServer | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const schema = Type.Object({
    pageSize: Type.Integer({ minimum: 1, maximum: 100 }),
    name: Type.Optional(Type.String()),
    overwrite: Type.Optional(Type.Boolean()),
    paths: Type.Optional(Type.Array(Type.String())),
  });

  it('holds a JSON body to its types; a form and a query string, which carry text, are read as the schema says', async () => {
    app = createServer({ logLevel: 'silent' });
    installFormParser(app);
    app.post('/body', { schema: { body: schema } }, async (req) => ({ code: '0', data: req.body }));
    app.get('/query', { schema: { querystring: schema } }, async (req) => ({ code: '0', data: req.query }));
    const json = (payload: unknown) =>
      app!.inject({ method: 'POST', url: '/body', payload: payload as object });

    // The right types pass as they are.
    const right = await json({ pageSize: 20, name: 'a', overwrite: true, paths: ['x'] });
    expect(right.json()).toEqual({
      code: '0',
      data: { pageSize: 20, name: 'a', overwrite: true, paths: ['x'] },
    });
    // The wrong ones are refused with the field named, and nothing reaches the handler.
    for (const [wrong, field] of [
      [{ pageSize: true }, 'pageSize'],
      [{ pageSize: '20' }, 'pageSize'],
      [{ pageSize: 20, name: 5 }, 'name'],
      [{ pageSize: 20, overwrite: 'true' }, 'overwrite'],
      [{ pageSize: 20, paths: 'x' }, 'paths'],
    ] as const) {
      const r = await json(wrong);
      expect(r.statusCode, JSON.stringify(wrong)).toBe(400);
      expect(r.json<{ code: string; data: { errors: { field: string }[] } }>()).toMatchObject({
        code: '1004',
      });
      expect(r.json<{ data: { errors: { field: string }[] } }>().data.errors[0]!.field).toContain(field);
    }

    // A form: every value is text, read as the schema's types; a single repeated field is an array.
    const form = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'pageSize=20&overwrite=true&paths=x',
    });
    expect(form.json()).toEqual({ code: '0', data: { pageSize: 20, overwrite: true, paths: ['x'] } });
    const query = await app.inject({ method: 'GET', url: '/query?pageSize=5&paths=a&paths=b' });
    expect(query.json()).toEqual({ code: '0', data: { pageSize: 5, paths: ['a', 'b'] } });
    // Text that is not the type is still refused.
    const badForm = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'pageSize=many',
    });
    expect(badForm.json()).toMatchObject({ code: '1004' });
  });
});
