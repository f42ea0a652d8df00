import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { ShellClientMessage, ShellServerMessage } from '@hpc/contracts';
import type { TrustedPeer } from '@hpc/server-kit';
import type { EshellDeps } from '../deps';
import type { ShellClient, ShellSession } from '../sessions/session-manager';
import { refusalOfSession } from '../sessions/revocation-watch';

/** Close codes the page acts on. */
export const CLOSE = {
  /** The session ended (an `end` message came first). */
  ended: 4000,
  /** Another page attached to the session. */
  replaced: 4001,
  /** No, a used or an expired ticket; the session may still run. */
  ticket: 4002,
  /** The service is stopping (1012: service restart). */
  restart: 1012,
} as const;

const AUTH_DEADLINE_MS = 10_000;
/** Output waits while this much is queued on the socket (the pty pauses: `cat` of a huge file stays bounded). */
const HIGH_WATER = 1 << 20;
const MAX_MESSAGE = 256 * 1024;

type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
const dispatchers = new WeakMap<Server, Map<string, UpgradeHandler>>();

/**
 * One `upgrade` listener per HTTP server, shared by every shell service mounted on it (the all-in-one may mount one
 * per cluster): the path picks the service; any other upgrade is refused.
 */
function onUpgrade(server: Server, path: string, handler: UpgradeHandler): () => void {
  let routes = dispatchers.get(server);
  if (!routes) {
    const table = new Map<string, UpgradeHandler>();
    routes = table;
    dispatchers.set(server, table);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node leaves an upgraded socket without its error listener: a peer that resets it while it is refused
      // would otherwise end the process.
      socket.on('error', () => undefined);
      const pathname = (req.url ?? '').split('?')[0]!;
      const h = table.get(pathname);
      if (!h || !h(req, socket, head)) {
        refuse(socket, '404 Not Found');
      }
    });
  }
  routes.set(path, handler);
  return () => routes.delete(path);
}

/**
 * Refuses an upgrade and lets the socket go once the answer is out. An upgraded socket is outside every HTTP
 * timeout, and `end` alone waits for the peer's own end: a client that never sends it held the socket (and a file
 * descriptor of the whole all-in-one process) for as long as it liked.
 */
function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`, () => socket.destroy());
}

/** The page's origin must be the service's own, or one of ESHELL_ALLOWED_ORIGINS (issue 26 §3). */
export function originAllowed(req: IncomingMessage, allowed: string[], proxy: TrustedPeer): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || !origin) return false;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (allowed.length > 0) return allowed.includes(o.origin);
  const forwarded = proxy?.(req.socket.remoteAddress ?? '') ? req.headers['x-forwarded-host'] : undefined;
  const host =
    // The last entry: the one the proxy in front set (one hop trusted, as for the client's address).
    (typeof forwarded === 'string' && forwarded ? forwarded.split(',').pop()!.trim() : req.headers.host) ??
    '';
  return o.host === host;
}

/**
 * The terminal's WebSocket (issue 26 §1, §3): `Origin` checked at the upgrade, then the first message must carry a
 * one-time ticket within 10 s; the ticket starts a new session or attaches to the user's running one, with its
 * scroll-back. Input and resizes are JSON text frames; output goes out as binary frames.
 */
export function registerShellSocket(
  server: Server,
  path: string,
  deps: EshellDeps,
  log: FastifyBaseLogger,
): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE, perMessageDeflate: false });
  const off = onUpgrade(server, path, (req, socket, head) => {
    if (!originAllowed(req, deps.config.allowedOrigins, deps.config.proxy)) {
      log.warn({ event: 'eshell.origin', origin: req.headers.origin }, 'shell socket refused: origin');
      refuse(socket, '403 Forbidden');
      return true;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, deps, log));
    return true;
  });
  return () => {
    off();
    for (const ws of wss.clients) ws.close(CLOSE.restart, 'service restart');
    wss.close();
  };
}

/** A frame's text (ws hands a Buffer, an ArrayBuffer or fragments). */
export const textOf = (raw: RawData): string =>
  Buffer.isBuffer(raw)
    ? raw.toString('utf8')
    : Array.isArray(raw)
      ? Buffer.concat(raw).toString('utf8')
      : Buffer.from(raw).toString('utf8');

const send = (ws: WebSocket, m: ShellServerMessage) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
};

function serve(ws: WebSocket, deps: EshellDeps, log: FastifyBaseLogger) {
  let session: ShellSession | null = null;
  let client: ShellClient | null = null;
  const deadline = setTimeout(() => ws.close(CLOSE.ticket, 'no ticket'), AUTH_DEADLINE_MS);
  // `ws` reports a frame that breaks the protocol (over 256 KiB, invalid UTF-8, unmasked, a reserved opcode) as an
  // 'error' on this socket, after it has sent the close frame with the code (1009, 1007, 1002). Without a listener
  // Node throws it, and the process ends: anyone who could reach the port, before any ticket, ended every user's
  // shells and, in the all-in-one, the whole portal (found from outside, 2026-12-01). Only this socket goes.
  ws.on('error', (e) => {
    log.info({ event: 'eshell.protocol', err: e.message }, 'shell socket closed: it broke the protocol');
    ws.terminate();
  });

  ws.on('message', (raw: RawData) => {
    let m: ShellClientMessage;
    try {
      m = JSON.parse(textOf(raw)) as ShellClientMessage;
    } catch {
      return;
    }
    if (!session) {
      if (m.t === 'auth' && !client) void open(m.ticket);
      return;
    }
    // Input the shell has not taken yet is bounded: past the mark, the socket is not read until it has.
    if (m.t === 'in' && typeof m.d === 'string') {
      if (!session.input(m.d, deps.now())) ws.pause();
    } else if (m.t === 'resize') {
      const cols = Math.trunc(Number(m.cols));
      const rows = Math.trunc(Number(m.rows));
      if (cols >= 2 && cols <= 1000 && rows >= 2 && rows <= 500) session.resize(cols, rows);
    }
  });
  ws.on('close', () => {
    clearTimeout(deadline);
    if (session && client) session.detach(client, deps.now());
  });

  async function open(ticket: string) {
    clearTimeout(deadline);
    const grant = deps.tickets.take(ticket);
    if (!grant) {
      ws.close(CLOSE.ticket, 'invalid ticket');
      return;
    }
    // Output is gathered for one turn of the event loop and sent as one frame: a pty gives a few KiB per read, and
    // a frame per read costs more than the bytes (cat of a big file). A key's echo still leaves at once.
    let pending: Buffer[] = [];
    let flushing = false;
    const flush = () => {
      flushing = false;
      if (pending.length === 0 || ws.readyState !== ws.OPEN) {
        pending = [];
        return;
      }
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      pending = [];
      ws.send(data, { binary: true }, () => {
        if (ws.bufferedAmount < HIGH_WATER / 2) target?.drained();
      });
    };
    const me: ShellClient = {
      output(d) {
        if (ws.readyState !== ws.OPEN) return true;
        pending.push(d);
        if (!flushing) {
          flushing = true;
          setImmediate(flush);
        }
        return ws.bufferedAmount < HIGH_WATER;
      },
      control: (msg) => {
        flush();
        send(ws, msg);
        if (msg.t === 'end') ws.close(CLOSE.ended, msg.reason);
      },
      replaced: () => ws.close(CLOSE.replaced, 'attached elsewhere'),
      inputDrained: () => ws.resume(),
    };
    client = me;
    let target: ShellSession | null = null;
    try {
      if (grant.create) {
        const node = deps.config.loginNodes.find((n) => n.address === grant.create!.node)!;
        target = await deps.sessions.start({
          id: grant.sessionId,
          sub: grant.sub,
          cun: grant.cun,
          node,
          cwd: grant.create.cwd,
          cols: grant.create.cols,
          rows: grant.create.rows,
        });
      } else {
        target = deps.sessions.ownedBy(grant.sessionId, grant);
      }
      target.credential = { token: grant.token, claims: grant.claims };
      // Asked again at the attach: a logout between the ticket and the socket ends it here.
      const refused = await refusalOfSession(target, deps.revocations, deps.ownerRights, deps.now());
      if (refused) {
        target.end(refused.reason, refused.why);
        send(ws, { t: 'end', reason: refused.reason, code: null, message: refused.why });
        ws.close(CLOSE.ended, refused.reason);
        return;
      }
      if (ws.readyState !== ws.OPEN) {
        if (grant.create) target.detachedAt = deps.now();
        return;
      }
      session = target;
      target.attach(me);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log.warn(
        { event: 'eshell.open-failed', user: grant.sub, cun: grant.cun, err: message },
        'shell not opened',
      );
      send(ws, { t: 'end', reason: 'error', code: null, message });
      ws.close(CLOSE.ended, 'error');
    }
  }
}
