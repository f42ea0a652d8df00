import http from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { closingHead, handOffTarget } from './handoff';

describe('the hand-off of a client connection (unix mode)', () => {
  it("rewrites Node's head to end the connection after this answer", () => {
    const head =
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\nDate: x\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n';
    expect(closingHead(head)).toBe(
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\nDate: x\r\nConnection: close\r\n\r\n',
    );
  });

  const server = http.createServer();
  afterAll(() => new Promise((r) => server.close(r)));

  /** The target the front end would see for an answer with these headers, on a real TCP connection. */
  async function targetFor(headers: http.OutgoingHttpHeaders, write?: string) {
    const seen = new Promise<ReturnType<typeof handOffTarget>>((resolve) =>
      server.once('request', (_req, res: http.ServerResponse) => {
        res.writeHead(200, headers);
        if (write) res.write(write);
        resolve(handOffTarget(res));
        res.end(write ? undefined : 'hello');
      }),
    );
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const done = new Promise((r) =>
      http.get(`http://127.0.0.1:${port}/`, (res) => res.resume().on('end', r)),
    );
    const t = await seen;
    await done;
    return t;
  }

  it('hands over only an unsent answer with a Content-Length on a plain TCP connection', async () => {
    const ok = await targetFor({ 'content-length': '5' });
    expect(ok?.head).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close\r\n\r\n$/);
    expect(ok?.head).not.toMatch(/keep-alive/i);
    // Chunked (no length), or bytes already written by this process: relayed instead.
    expect(await targetFor({})).toBeNull();
    expect(await targetFor({ 'content-length': '5' }, 'hello')).toBeNull();
    // Not an HTTP answer on a socket (a test stream, an inject): relayed.
    expect(handOffTarget(new PassThrough())).toBeNull();
  });
});
