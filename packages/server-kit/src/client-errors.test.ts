import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { LinuxRoutes, PageQuery } from '@hpc/contracts';
import { createServer, MAX_PARAM_LENGTH, type AppServer } from './fastify';
import { installFormParser } from './form-body';

type Envelope = { code: string; msg: string; data: unknown };

/** What came back on a raw connection: status, headers, the body, and whether the server closed it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  closedByServer: boolean;
}

/** Sends bytes on a new connection and reads until the server closes it (or 3 s pass). */
function raw(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => s.destroy(), 3000);
    s.on('data', (d: Buffer) => chunks.push(d));
    s.on('end', () => (closedByServer = true));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closedByServer,
      });
    });
    s.write(bytes);
  });
}

describe('refusals before routing', () => {
  let app: AppServer | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const listen = async () => {
    app = createServer({ logLevel: 'silent' });
    app.get('/ok', async () => ({ code: '0' }));
    // Answered later than a bad request after it arrives.
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { code: '0' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as net.AddressInfo).port;
  };

  it('takes a path parameter of a 255-byte name, percent-encoded; a longer one is invalid input (414), not a 500', async () => {
    app = createServer({ logLevel: 'silent' });
    // The Linux command's upload (efile's linux.routes.ts), by its declared path.
    app.put(LinuxRoutes.putFile.path, async (req) => ({
      code: '0',
      data: (req.params as { name: string }).name,
    }));
    const name = '实'.repeat(85); // 255 bytes of UTF-8, 765 characters encoded
    const put = (n: string, lang = 'en-US') =>
      app!.inject({
        method: 'PUT',
        url: `/linux/put/${encodeURIComponent(n)}`,
        headers: { 'accept-language': lang },
      });
    const ok = await put(name);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Envelope>().data).toBe(name);
    expect((await put('a'.repeat(MAX_PARAM_LENGTH))).statusCode).toBe(200);

    const long = await put('a'.repeat(MAX_PARAM_LENGTH + 1), 'zh-CN');
    expect(long.statusCode).toBe(414);
    expect(long.json<Envelope>()).toEqual({
      code: '1004',
      msg: `输入无效：地址中有一段超过 ${MAX_PARAM_LENGTH} 个字符`,
      data: null,
    });
    expect(long.headers['content-language']).toBe('zh-CN');
  });

  it('refuses a number that is not finite (Infinity, 1e400) in a query or a form as invalid input, whatever its bounds', async () => {
    app = createServer({ logLevel: 'silent' });
    installFormParser(app);
    const query = Type.Object({
      ...PageQuery.properties,
      ns: Type.Optional(Type.Array(Type.Number())),
    });
    app.get('/page', { schema: { querystring: query } }, async (req) => ({ code: '0', data: req.query }));
    app.post('/form', { schema: { body: query } }, async (req) => ({ code: '0', data: req.body }));
    const codeOf = async (q: string) => {
      const r = await app!.inject({ url: `/page?${q}` });
      const f = await app!.inject({
        method: 'POST',
        url: '/form',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: q,
      });
      return `${r.statusCode} ${r.json<Envelope>().code}, form ${f.statusCode} ${f.json<Envelope>().code}`;
    };
    for (const q of [
      'pageNum=Infinity',
      'pageNum=-Infinity',
      'pageNum=1e400',
      'pageSize=Infinity',
      'ns=1&ns=Infinity',
    ])
      expect({ q, answer: await codeOf(q) }).toEqual({ q, answer: '400 1004, form 400 1004' });
    expect(await codeOf('pageNum=2&ns=1.5')).toBe('200 0, form 200 0');
    const zh = await app.inject({ url: '/page?pageNum=Infinity', headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json<Envelope>().msg).toBe('输入无效：querystring/pageNum 必须是有限的数字');
  });

  it("answers the envelope to requests Node's parser refuses, in the request's language, and closes", async () => {
    const port = await listen();
    const cases: [string, string, number, string][] = [
      [
        'no colon',
        'GET /ok HTTP/1.1\r\nHost: x\r\nAccept-Language: zh-CN\r\nbadheader\r\n\r\n',
        400,
        'zh-CN',
      ],
      [
        'control byte',
        'GET /o\x01k HTTP/1.1\r\nHost: x\r\naccept-language: en-US,zh;q=0.5\r\n\r\n',
        400,
        'en-US',
      ],
      [
        'length and chunked',
        'POST /ok HTTP/1.1\r\nHost: x\r\nAccept-Language: zh\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
        'zh-CN',
      ],
      [
        'big header',
        `GET /ok HTTP/1.1\r\nAccept-Language: zh-CN\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
        431,
        'zh',
      ],
      ['big query', `GET /ok?q=${'b'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, ''],
    ];
    for (const [what, bytes, status, lang] of cases) {
      const r = await raw(port, bytes);
      expect({ what, status: r.status, closed: r.closedByServer, type: r.headers['content-type'] }).toEqual({
        what,
        status,
        closed: true,
        type: 'application/json; charset=utf-8',
      });
      expect(Buffer.byteLength(r.body)).toBe(Number(r.headers['content-length']));
      const body = JSON.parse(r.body) as Envelope;
      expect(body).toMatchObject({ code: '1004', data: null });
      if (lang === 'zh-CN') expect(body.msg, what).toMatch(/^输入无效/);
      // Accept-Language came before the header too large, in the bytes at hand or not: Chinese, or both.
      if (lang === 'zh') expect(body.msg, what).toMatch(/输入无效：请求的地址或请求头过大$/);
      if (lang === 'en-US') expect(body.msg, what).toBe('Invalid input: the request is not valid HTTP');
      // Where the language is not in the bytes at hand, both languages.
      if (lang === '') expect(body.msg, what).toMatch(/^Invalid input: .* \/ 输入无效：/);
      if (lang === 'zh-CN' || lang === 'en-US') expect(r.headers['content-language'], what).toBe(lang);
    }
  });

  it('ends a request whose own body is cut or malformed at once, not after the answer it can never give', async () => {
    app = createServer({ logLevel: 'silent' });
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));
    // What a handler reading its body saw: how many bytes, and how the body ended.
    const outcomes: Array<{ bytes: number; ended: string }> = [];
    const seen = new Set<(o: { bytes: number; ended: string }) => void>();
    const next = () => new Promise<{ bytes: number; ended: string }>((resolve) => seen.add(resolve));
    app.put('/body', async (req) => {
      let bytes = 0;
      let ended = 'whole';
      try {
        for await (const piece of req.raw) bytes += (piece as Buffer).length;
      } catch (e) {
        ended = (e as Error).message;
      }
      const o = { bytes, ended };
      outcomes.push(o);
      for (const f of seen) f(o);
      seen.clear();
      return { code: '0' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;

    // A client that goes away (FIN) in the middle of its body, as a killed uploader does. Before, the parser's
    // refusal waited for this request's answer, the handler waited for the rest of the body, and both stayed until
    // the slow-body guard dropped the connection 30 s later (a fast-transfer range kept its lock that long).
    const cut = next();
    const s = net.connect(port, '127.0.0.1', () => {
      s.write('PUT /body HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
      setTimeout(() => s.end(Buffer.alloc(100, 1)), 50);
    });
    s.on('error', () => undefined);
    expect(await cut).toEqual({ bytes: 100, ended: 'aborted' });

    // A malformed chunk in the body of the request being read: refused with the envelope, the handler's read ends.
    const bad = next();
    const r = await raw(
      port,
      'PUT /body HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n',
    );
    expect((await bad).bytes).toBe(5);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ code: '1004' });
    expect(r.closedByServer).toBe(true);
    // The server goes on.
    const after = await raw(
      port,
      'PUT /body HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc',
    );
    expect(after.status).toBe(200);
    expect(outcomes.at(-1)).toEqual({ bytes: 3, ended: 'whole' });
  });

  it('answers a bad request after a good one on the same connection; a reset connection gets nothing, the server goes on', async () => {
    const port = await listen();
    // The good one is answered later than the bad one arrives.
    const r = await raw(
      port,
      'GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n',
    );
    // The refusal comes after the answer of the request before it, not in its place.
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^\{"code":"0"\}HTTP\/1\.1 400 Bad Request\r\n[^]*\{"code":"1004",/);
    expect(r.closedByServer).toBe(true);

    await new Promise<void>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.write('GET /ok HTTP/1.1\r\nHost: x\r\nX-Half: ');
        setTimeout(() => {
          s.resetAndDestroy();
          resolve();
        }, 50);
      });
      s.on('error', () => undefined);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(after.status).toBe(200);
  });
});
