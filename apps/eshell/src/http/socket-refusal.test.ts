import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ESHELL_WS_PATH } from '@hpc/contracts';
import { trustedPeer } from '@hpc/server-kit';
import { useNodelessEshell } from '../eshell.test-fixture';
import { originAllowed } from './socket';

/**
 * A refused upgrade (another origin, an unknown path) must let its socket go once the answer is out: upgraded
 * sockets are outside every HTTP timeout, and a client that never closed its side held one file descriptor of the
 * process per connection (a reviewer held 300 of them for minutes; the all-in-one's limit is a few thousand).
 */
describe("E-Shell's refused upgrades", () => {
  const harness = useNodelessEshell('eshell-refusal-');

  const connections = () =>
    new Promise<number>((resolve, reject) =>
      harness().app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))),
    );

  /** Asks for an upgrade, reads the refusal, and never closes its own side. */
  const refusedClient = (url: string, origin: string) =>
    new Promise<{ socket: net.Socket; answer: string }>((resolve, reject) => {
      const { port } = new URL(harness().base);
      const socket = net.connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
      let answer = '';
      socket.on('error', reject);
      socket.on('data', (d: Buffer) => {
        answer += d.toString();
        if (answer.includes('\r\n\r\n')) resolve({ socket, answer });
      });
      socket.write(
        `GET ${url} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\norigin: ${origin}\r\nupgrade: websocket\r\n` +
          'connection: Upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n',
      );
    });

  it('lets the socket of a refused origin or path go, though the client keeps its side open', async () => {
    const before = await connections();
    const held = await Promise.all([
      ...Array.from({ length: 5 }, () => refusedClient(ESHELL_WS_PATH, 'https://evil.example.org')),
      ...Array.from({ length: 5 }, () => refusedClient('/no-such-socket', harness().base)),
    ]);
    expect(held.map((c) => c.answer.split('\r\n')[0])).toEqual([
      ...Array(5).fill('HTTP/1.1 403 Forbidden'),
      ...Array(5).fill('HTTP/1.1 404 Not Found'),
    ]);
    let now = await connections();
    for (let i = 0; i < 50 && now > before; i++) {
      await new Promise((r) => setTimeout(r, 20));
      now = await connections();
    }
    expect(now).toBe(before);
    for (const c of held) c.socket.destroy();
  });

  it("takes the page's host from X-Forwarded-Host only when the peer is a listed proxy", () => {
    const upgrade = (remoteAddress: string) =>
      ({
        headers: {
          origin: 'https://evil.example.org',
          host: '127.0.0.1:8443',
          'x-forwarded-host': 'evil.example.org',
        },
        socket: { remoteAddress },
      }) as unknown as IncomingMessage;
    const proxy = trustedPeer('10.0.0.2');
    // A local account connecting past the proxy names the host its own page is on: refused.
    expect(originAllowed(upgrade('127.0.0.1'), [], proxy)).toBe(false);
    expect(originAllowed(upgrade('10.0.0.2'), [], proxy)).toBe(true);
    expect(originAllowed(upgrade('10.0.0.2'), [], null)).toBe(false);
    expect(originAllowed(upgrade('10.0.0.2'), ['https://portal.example.org'], proxy)).toBe(false);
  });

  it('refuses a ticket whose folder holds a NUL (the login ended at once with "unexpected EOF")', async () => {
    const h = harness();
    const token = await h.token('demo');
    expect((await h.ticket(token, { cwd: '/public/home/demo\u0000x' })).code).toBe('1004');
  });
});
