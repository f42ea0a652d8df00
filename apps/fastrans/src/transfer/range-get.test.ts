import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch, rangeBodyOf } from './http';
import { rawRangeGet } from './range-get';

const FILE = crypto.randomBytes(3 * 1024 * 1024 + 17);
const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** A node:http server of FILE's ranges, counting its connections; `answer` may take over a request. */
async function rangeServer(answer?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean) {
  const seen = { connections: 0, requests: 0 };
  const server = http.createServer((req, res) => {
    seen.requests++;
    if (answer?.(req, res)) return;
    const m = /bytes=(\d+)-(\d+)/.exec(String(req.headers.range));
    const [a, b] = [Number(m![1]), Number(m![2])];
    res.writeHead(206, {
      'content-length': b - a + 1,
      'content-range': `bytes ${a}-${b}/${FILE.length}`,
      'content-digest': `sha-256=:${crypto
        .createHash('sha256')
        .update(FILE.subarray(a, b + 1))
        .digest('base64')}:`,
    });
    res.end(FILE.subarray(a, b + 1));
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** A raw TCP server whose every connection `on` drives by hand. */
async function rawServer(on: (socket: net.Socket, request: string) => void) {
  const server = net.createServer((socket) => {
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n\r\n')) {
        const request = got;
        got = '';
        on(socket, request);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => sockets.add(s));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const get = (fetch: typeof globalThis.fetch, base: string, a: number, b: number, extra: object = {}) =>
  fetch(`${base}/read?path=x`, { headers: { range: `bytes=${a}-${b - 1}`, token: 't', ...extra } });

describe('range GETs read straight into the range buffer (issue 24 §1)', () => {
  it('reads ranges into the given buffers, one kept-alive connection for many, with their headers', async () => {
    const { url, seen } = await rangeServer();
    const given: Buffer[] = [];
    const fetch = nodeFetch({ rangeBody: (n) => (given[given.length] = Buffer.alloc(n + 5)) });
    const size = 1024 * 1024;
    for (let a = 0; a < FILE.length; a += size) {
      const b = Math.min(FILE.length, a + size);
      const res = await get(fetch, url, a, b);
      expect(res.status).toBe(206);
      const body = rangeBodyOf(res)!;
      expect(body.equals(FILE.subarray(a, b))).toBe(true);
      // The pool's buffer itself (a view of its first bytes), not a copy.
      expect(body.buffer).toBe(given.at(-1)!.buffer);
      expect(res.headers.get('content-digest')).toMatch(/^sha-256=:/);
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    }
    // The fast path itself answered (not node:http after a fallback), on the same connection.
    const direct = await rawRangeGet({
      url: new URL(`${url}/read`),
      headers: { range: 'bytes=3-12' },
      bodyOf: (n) => Buffer.alloc(n),
      idleMs: 1000,
      maxBody: 100,
    });
    expect(direct?.body.equals(FILE.subarray(3, 13))).toBe(true);
    expect(seen.requests).toBe(5);
    expect(seen.connections).toBe(1);
  });

  it('gives the same answers as node:http, for ranges and for the answers it leaves to node:http', async () => {
    const { url } = await rangeServer((req, res) => {
      if (!String(req.headers.range).startsWith('bytes=7-')) return false;
      // An envelope instead of the range: the ordinary path reads it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: '1001', msg: 'no such file', data: null }));
      return true;
    });
    const raw = nodeFetch();
    const plain = nodeFetch({ rawRanges: false });
    for (const [a, b] of [
      [0, 100],
      [5000, 2_000_000],
      [7, 9],
    ] as const) {
      const [x, y] = [await get(raw, url, a, b), await get(plain, url, a, b)];
      expect(x.status).toBe(y.status);
      expect(x.headers.get('content-type')).toBe(y.headers.get('content-type'));
      expect(Buffer.from(await x.arrayBuffer()).equals(Buffer.from(await y.arrayBuffer()))).toBe(true);
    }
  });

  it('reads a head and a body that arrive a few bytes at a time', async () => {
    const body = crypto.randomBytes(5000);
    const url = await rawServer((socket) => {
      const whole = Buffer.concat([
        Buffer.from(`HTTP/1.1 206 Partial Content\r\nContent-Length: ${body.length}\r\nX-A: 1\r\n\r\n`),
        body,
      ]);
      let at = 0;
      const drip = () => {
        if (socket.destroyed || at >= whole.length) return;
        socket.write(whole.subarray(at, at + 7 + (at % 13)));
        at += 7 + (at % 13);
        setImmediate(drip);
      };
      drip();
    });
    const res = await get(nodeFetch(), url, 0, body.length);
    expect(res.headers.get('x-a')).toBe('1');
    expect(rangeBodyOf(res)!.equals(body)).toBe(true);
  });

  it('asks again the ordinary way for a chunked range answer', async () => {
    const { url, seen } = await rangeServer((req, res) => {
      if (seen.requests > 1) return false;
      res.writeHead(206, { 'content-range': `bytes 0-9/${FILE.length}` });
      res.write(FILE.subarray(0, 4));
      res.end(FILE.subarray(4, 10));
      return true;
    });
    const res = await get(nodeFetch(), url, 0, 10);
    expect(Buffer.from(await res.arrayBuffer()).equals(FILE.subarray(0, 10))).toBe(true);
    expect(seen.requests).toBe(2);
  });

  it('a kept-alive connection the server closed while idle: the range goes once more on a fresh one', async () => {
    const { url, seen, server } = await rangeServer();
    const fetch = nodeFetch();
    await get(fetch, url, 0, 10);
    server.closeAllConnections();
    await new Promise((r) => setTimeout(r, 50));
    const res = await get(fetch, url, 10, 20);
    expect(rangeBodyOf(res)!.equals(FILE.subarray(10, 20))).toBe(true);
    expect(seen.connections).toBe(2);
  });

  it('a body cut off, a silent server and an abort reject (the engine sends the range again)', async () => {
    const cut = await rawServer((socket) => {
      socket.write('HTTP/1.1 206 Partial Content\r\nContent-Length: 100\r\n\r\n' + 'x'.repeat(40));
      setTimeout(() => socket.destroy(), 20);
    });
    await expect(get(nodeFetch(), cut, 0, 100)).rejects.toThrow(/closed before the answer ended/);
    const silent = await rawServer(() => undefined);
    await expect(get(nodeFetch({ idleMs: 100 }), silent, 0, 100)).rejects.toThrow(/timeout/);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    await expect(
      nodeFetch()(`${silent}/r`, { headers: { range: 'bytes=0-9' }, signal: ctl.signal }),
    ).rejects.toThrow(/aborted/);
  });

  it('an answer longer than its length, or not HTTP, is refused and its socket dropped', async () => {
    const long = await rawServer((socket) =>
      socket.write('HTTP/1.1 206 Partial Content\r\nContent-Length: 3\r\n\r\nabcdef'),
    );
    await expect(get(nodeFetch(), long, 0, 3)).rejects.toThrow(/longer than its length/);
    const junk = await rawServer((socket) => socket.write('SSH-2.0-OpenSSH_9.2\r\n\r\n'));
    await expect(get(nodeFetch(), junk, 0, 3)).rejects.toThrow(/not an HTTP answer/);
  });

  it('never writes a header value with a line break (no request smuggled into the connection)', async () => {
    let requests = 0;
    const url = await rawServer(() => requests++);
    await expect(
      rawRangeGet({
        url: new URL(`${url}/r`),
        headers: { range: 'bytes=0-1', token: 'a\r\nX-Evil: 1' },
        bodyOf: (n) => Buffer.alloc(n),
        idleMs: 1000,
        maxBody: 100,
      }),
    ).rejects.toThrow(TypeError);
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toBe(0);
  });
});
