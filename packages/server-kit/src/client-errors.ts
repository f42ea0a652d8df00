import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { CommonCodes, localisedErrorMessage, type ServerText } from '@hpc/contracts';
import { ServerKitText } from './messages';

/** A header's value in the head of a request Node's parser refused, if the bytes it was given hold it. */
function headerOfRawPacket(raw: unknown, name: string): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  // Only the language is read from it, never echoed; a bounded look at the first 64 KiB.
  const head = raw.subarray(0, 65_536).toString('latin1');
  const m = new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]{0,256})`, 'i').exec(head);
  return m?.[1];
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a header line without a colon, a control byte in the
 * path, both Content-Length and Transfer-Encoding; headers and address over 16 KiB: 431; headers that never came:
 * 408): the envelope, in the request's language when its Accept-Language is in the bytes at hand, else in both;
 * then the connection is closed, as Node does. Fastify's default answered its own English body.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  err: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
) {
  // A reset or closed connection has no one to answer (Node's and Fastify's rule).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text] = clientRefusal(err.code);
  // The code only: the error carries the raw bytes of the request, credentials among them.
  this.log.debug({ code: err.code, status }, 'client error');
  const refuse = () => {
    if (socket.writable) socket.write(clientRefusalBytes(status, text, err.rawPacket));
    socket.destroy(err);
  };
  const inFlight = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (!inFlight || inFlight.writableFinished) return refuse();
  // The bad bytes are the body of the request being answered (a peer gone in the middle of an upload, a malformed
  // chunk): that request cannot go on, and its handler may be waiting for the rest of that body. Waiting for its
  // answer kept the connection, and what the handler held (a fast-transfer range's lock), until the slow-body guard
  // dropped it 30 s later. Ended now, as Node ends it: the handler's read fails with 'aborted'.
  if (!inFlight.req.complete) return inFlight.headersSent ? socket.destroy(err) : refuse();
  // A pipelined request before the bad one is still being answered: the refusal comes after its answer, never
  // inside it or in its place (Node wrote it in its place when the answer had not started).
  inFlight.once('finish', refuse);
  inFlight.once('close', () => socket.destroy(err));
}

/** The whole HTTP answer of a refusal of Node's parser: the envelope, and the connection closed. */
function clientRefusalBytes(status: number, text: ServerText, rawPacket: unknown): string {
  const code = CommonCodes.invalidInput;
  const lang = headerOfRawPacket(rawPacket, 'accept-language');
  const local = lang === undefined ? null : localisedErrorMessage(code, text.en, lang, text.zh);
  const body = JSON.stringify({ code, msg: local?.msg ?? `${text.en} / ${text.zh}`, data: null });
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    (local ? `Content-Language: ${local.lang}\r\n` : '') +
    `Connection: close\r\n\r\n${body}`
  );
}

/** The status and text of a refusal of Node's HTTP parser. */
function clientRefusal(code: string | undefined): [number, ServerText] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, ServerKitText.headersTooLarge];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, ServerKitText.requestTimedOut];
  return [400, ServerKitText.malformedRequest];
}
