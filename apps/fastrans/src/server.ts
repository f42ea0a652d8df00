import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { loopbackPeerUid } from './peer';
import { FastransCodes } from '@hpc/contracts';
import type { Answer, Request } from './protocol';
import { FastransText } from './messages';

export interface LocalServerOptions {
  ports: number[];
  allowedOrigins: string[];
  handle(m: Request, origin: string): Promise<Answer>;
  log(msg: string): void;
  /**
   * The local user allowed to connect (default: the one this client runs as). Where the system does not tell who
   * is at the other end, only the pairing of the login (session.ts, `Owner`) stands between other accounts and the
   * client.
   */
  uid?: number;
}

/** Listens on the first free port of the list, on 127.0.0.1 only. */
async function listenFirstFree(server: http.Server, ports: number[]): Promise<number> {
  for (const port of ports) {
    const ok = await new Promise<boolean>((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException) => {
        server.off('listening', onListening);
        if (e.code === 'EADDRINUSE' || e.code === 'EACCES') resolve(false);
        else reject(e);
      };
      const onListening = () => {
        server.off('error', onError);
        resolve(true);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, '127.0.0.1');
    });
    if (ok) return (server.address() as { port: number }).port;
  }
  throw new Error(`no free port among ${ports.join(', ')}`);
}

/** A socket's IPv4 address as `/proc/net/tcp` spells it (Node may give `::ffff:127.0.0.1`). */
const plainIPv4 = (address: string | undefined) => (address ?? '').replace(/^::ffff:/i, '');

/** The answer, then the socket let go: `end` alone waits for the peer's own end, which a client may never send. */
const refuse = (socket: Duplex, status: number, why: string) => {
  socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () =>
    socket.destroy(),
  );
};

/**
 * The local WebSocket server the page drives. Any page the user opens can try to reach it, so before any action:
 * the `Host` must be the loopback address this server listens on (a DNS-rebound name is refused), and the `Origin`
 * must be on the allow-list (the portal the package came from), and the connecting process must be of the user
 * this client runs as, where the system tells (Linux): another account on a shared machine sets any `Origin` it
 * likes. Plain HTTP requests are refused. A malformed frame closes its own socket (1002, 1007, 1009), never the
 * client: without an error listener, `ws` threw it out of the process with every transfer in flight.
 */
export async function startLocalServer(opts: LocalServerOptions) {
  const server = http.createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  const clients = new Set<WebSocket>();
  const port = await listenFirstFree(server, opts.ports);
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const uid = opts.uid ?? process.getuid?.();
  let untold = false;
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined); // a peer gone mid-handshake; its own socket only
    void admit(req, socket, head);
  });

  async function admit(req: http.IncomingMessage, socket: Duplex, head: Buffer) {
    if (uid !== undefined) {
      const peer = await loopbackPeerUid({
        peerAddress: plainIPv4(req.socket.remoteAddress),
        peerPort: req.socket.remotePort ?? -1,
        ourAddress: plainIPv4(req.socket.localAddress),
        ourPort: req.socket.localPort ?? port,
      });
      if (peer === undefined && !untold) {
        untold = true;
        opts.log('this system does not tell who connects: only the login pairing guards the client');
      }
      if (peer !== undefined && peer !== uid) {
        opts.log(`refused a connection of another local user (uid ${peer ?? 'unknown'})`);
        return refuse(socket, 403, 'Forbidden');
      }
    }
    const host = (req.headers.host ?? '').toLowerCase();
    const origin = req.headers.origin ?? '';
    if (!hosts.has(host)) {
      opts.log(`refused a connection for host ${JSON.stringify(host)}`);
      return refuse(socket, 403, 'Forbidden');
    }
    if (!opts.allowedOrigins.includes(origin)) {
      opts.log(`refused a connection from origin ${JSON.stringify(origin)}`);
      return refuse(socket, 403, 'Forbidden');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      // `ws` has already sent the close frame with the code (1009 too big, 1002 protocol, 1007 bad UTF-8).
      ws.on('error', (e) => opts.log(`closed a connection that broke the protocol: ${e.message}`));
      ws.on('message', (raw, isBinary) => {
        if (isBinary) return;
        let m: Request;
        try {
          m = JSON.parse((raw as Buffer).toString('utf8')) as Request;
          if (!m || typeof m !== 'object' || typeof m.action !== 'string') throw new Error('not a request');
        } catch {
          ws.send(
            JSON.stringify({
              id: 0,
              code: FastransCodes.badRequest,
              msg: FastransText.notJson.en,
              zh: FastransText.notJson.zh,
              data: null,
            }),
          );
          return;
        }
        void opts.handle(m, origin).then((a) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(a));
        });
      });
    });
  }

  return {
    port,
    /** Events (no id) to every connected page. */
    broadcast(event: string, data: unknown) {
      const text = JSON.stringify({ event, data });
      for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(text);
    },
    async close() {
      for (const ws of clients) ws.terminate();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
