import { ServerResponse } from 'node:http';
import net from 'node:net';
import type { Writable } from 'node:stream';

/**
 * Unix mode's connection hand-off (issue 10 §4), for any service on user workers. A download's or a zip's bytes
 * would otherwise cross the front end: worker → Unix socket → front end → client, two more copies and a relay whose
 * per-piece cost made unix mode 0.33× of single mode on a quiet machine. Instead, once the headers are final, the
 * front end passes the client's TCP connection (the file descriptor, over the launcher's IPC channels: front end →
 * launcher → worker) to the user's worker, which writes the head and the body itself and closes the connection.
 * File bytes never reach the front end, as in single mode.
 *
 * The response says `Connection: close`, so no client or proxy reuses a connection the worker once held: the
 * worker sees only the one answer it was asked to write (docs/SECURITY.md "Unix mode"). The front end's side is
 * `UserWorkers.handOff`, the launcher forwards (launcher.ts), the worker host passes it to the service's `serve`.
 */

/** What the front end sends the launcher with the connection, and the launcher forwards to the user's worker. */
export interface ServeMessage {
  op: 'serve';
  id: number;
  user: string;
  /** The service's description of the answer to write (efile: a file's range, a zip laid out in the worker). */
  job: unknown;
  /** The response head as Node would have sent it, with `Connection: close` (latin1: header bytes). */
  head: string;
}

/** Node's own serialized head of a response whose headers are set (`writeHead`) but not yet sent. */
interface UnsentResponse extends ServerResponse {
  _header?: string | null;
  _headerSent?: boolean;
}

/**
 * The connection and the head to hand off, or null when this response must be relayed instead: not a plain TCP
 * connection (TLS, an in-process inject, a test stream), anything already written or queued on it (a previous
 * answer still draining: the worker's bytes would overtake it), or a body framing the worker does not write.
 */
export function handOffTarget(out: Writable): { socket: net.Socket; head: string } | null {
  if (!(out instanceof ServerResponse)) return null;
  const res = out as UnsentResponse;
  const socket = res.socket;
  if (!(socket instanceof net.Socket) || 'encrypted' in socket || socket.destroyed) return null;
  if (
    typeof res._header !== 'string' ||
    res._headerSent ||
    res.writableLength > 0 ||
    socket.writableLength > 0
  )
    return null;
  const head = res._header;
  if (!/\r\ncontent-length: *\d+\r\n/i.test(head) || /\r\ntransfer-encoding:/i.test(head)) return null;
  return { socket, head: closingHead(head) };
}

/** The same head, ending the connection after this answer: `Connection: close`, no `Keep-Alive` line. */
export function closingHead(head: string): string {
  const lines = head.slice(0, head.indexOf('\r\n\r\n')).split('\r\n');
  const kept = lines.filter((l, i) => i === 0 || !/^(connection|keep-alive):/i.test(l));
  return [...kept, 'Connection: close'].join('\r\n') + '\r\n\r\n';
}
