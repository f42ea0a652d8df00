import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface SlowBodyOptions {
  /** How often the progress of a body is looked at. */
  windowMs: number;
  /** Fewer bytes than this from the client in a window, while the server waited for them: the request is dropped. */
  minBytes: number;
}

/** Bodies are looked at every 30 s; below 1 KiB in that time the client is not sending one. */
export const SLOW_BODY: SlowBodyOptions = { windowMs: 30_000, minBytes: 1024 };

/**
 * Drops a request whose body trickles in (a byte every 20 s kept a connection, and a file descriptor of the whole
 * all-in-one process, for as long as the client liked: Fastify switches Node's request timeout off, and only the
 * headers have a deadline of their own). Uploads of any size must still pass, so the rule is a rate, not a
 * deadline: each window the socket must have brought `minBytes` more. A window in which the server was not reading
 * (its handler waits on a lock or a disk, the body's bytes sit in the stream's buffer) does not count against the
 * client.
 */
export function installSlowBodyGuard(app: FastifyInstance, o: SlowBodyOptions = SLOW_BODY): void {
  app.addHook('onRequest', async (req, reply) => {
    const raw = req.raw;
    // A real connection only: an injected request (tests, the all-in-one's own calls) has no socket to drop, and
    // its stand-in never says the body is complete.
    if (!(raw.socket instanceof net.Socket)) return;
    const hasBody =
      Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete) return;
    const socket = raw.socket;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      // Answered already (a refusal before the body was read): Node goes on reading the rest to throw it away, and
      // a client trickling 1 KiB per window kept the connection for days. One window after the answer, it ends.
      if (reply.raw.writableFinished) {
        clearInterval(timer);
        socket.destroy();
        return;
      }
      const now = socket.bytesRead;
      const serverWaiting = raw.readableLength === 0 && socket.readableLength === 0;
      if (serverWaiting && now - seen < o.minBytes) {
        clearInterval(timer);
        req.log.warn({ event: 'http.slow-body', bytes: now - seen, windowMs: o.windowMs }, 'request dropped');
        socket.destroy();
        return;
      }
      seen = now;
    }, o.windowMs);
    timer.unref();
    raw.once('close', () => clearInterval(timer));
  });
}
