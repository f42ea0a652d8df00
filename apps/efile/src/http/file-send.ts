import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@hpc/server-kit';
import type { ReadHandle } from '../userfs/types';
import { CommonCodes } from '@hpc/contracts';
import { EfileText } from '../messages';

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name, so Chinese names survive every browser. */
export function contentDisposition(name: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const star = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${star}`;
}

/** Parses a single `bytes=` range; null = whole file; 'invalid' = unsatisfiable (416). */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple ranges are rare (and multipart/byteranges costly): answer them with the whole file, which RFC 7233 allows.
  if (!m) return header.includes(',') ? null : 'invalid';
  const [, a, b] = m;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'invalid';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

export interface SendOptions {
  disposition?: 'attachment' | 'inline';
  contentType?: string;
  /** Extra headers (e.g. a sandbox CSP for inline previews). */
  headers?: Record<string, string>;
}

/**
 * Streams one open file with Content-Length, RFC 6266 filename and Range (206/416). The file was opened by the user
 * file system (O_NOFOLLOW|O_NONBLOCK, a regular file); its bytes go straight to the raw response once the headers
 * are final, so every header must be set on `reply` before this is called. The handle is closed when done.
 */
export async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  file: ReadHandle,
  name: string,
  opts: SendOptions = {},
) {
  let handedOver = false;
  try {
    const etag = `"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
    reply.header('accept-ranges', 'bytes');
    reply.header('last-modified', new Date(file.mtimeMs).toUTCString());
    reply.header('etag', etag);
    reply.header('content-disposition', contentDisposition(name, opts.disposition));
    reply.header('content-type', opts.contentType ?? 'application/octet-stream');
    for (const [k, v] of Object.entries(opts.headers ?? {})) reply.header(k, v);
    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, file.size);
    if (range === 'invalid') {
      reply.header('content-range', `bytes */${file.size}`);
      throw new AppError(CommonCodes.invalidInput, EfileText.rangeNotSatisfiable, { status: 416 });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? file.size - 1;
    reply.header('content-length', String(file.size === 0 ? 0 : end - start + 1));
    if (range) {
      reply.status(206);
      reply.header('content-range', `bytes ${start}-${end}/${file.size}`);
    }
    if (file.size === 0) {
      await file.close();
      handedOver = true;
      return reply.send('');
    }
    handedOver = true;
    const res = takeOverResponse(reply);
    const body = req.method === 'HEAD' ? Promise.resolve(res.end()) : file.pipeTo(res, start, end);
    void body.finally(() => file.close().catch(() => undefined));
    return reply;
  } finally {
    if (!handedOver) await file.close().catch(() => undefined);
  }
}

/**
 * Sends the status and headers set on `reply` and hands its raw response to the caller, who writes the body
 * itself (from pooled blocks, with write callbacks Fastify's stream handling would hide). Fastify's onSend hooks
 * do not run for it: headers that every answer needs are set in onRequest.
 */
export function takeOverResponse(reply: FastifyReply): ServerResponse {
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  return reply.raw;
}
