import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@hpc/server-kit';
import { openForRead } from './file-ops';

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
 * Streams one file with Content-Length, RFC 6266 filename and Range (206/416). The file is opened with
 * O_NOFOLLOW and read in 1 MiB blocks; the stream is destroyed when the client goes away.
 */
export async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  host: string,
  name: string,
  opts: SendOptions = {},
) {
  const fh = await openForRead(host);
  let handedOver = false;
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new AppError('1022', 'Not a regular file');
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    reply.header('accept-ranges', 'bytes');
    reply.header('last-modified', st.mtime.toUTCString());
    reply.header('etag', etag);
    reply.header('content-disposition', contentDisposition(name, opts.disposition));
    reply.header('content-type', opts.contentType ?? 'application/octet-stream');
    for (const [k, v] of Object.entries(opts.headers ?? {})) reply.header(k, v);
    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, st.size);
    if (range === 'invalid') {
      reply.header('content-range', `bytes */${st.size}`);
      throw new AppError('1004', 'Requested range not satisfiable', { status: 416 });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? st.size - 1;
    reply.header('content-length', String(st.size === 0 ? 0 : end - start + 1));
    if (range) {
      reply.status(206);
      reply.header('content-range', `bytes ${start}-${end}/${st.size}`);
    }
    if (st.size === 0) {
      await fh.close();
      handedOver = true;
      return reply.send('');
    }
    const stream = fh.createReadStream({ start, end, highWaterMark: 1024 * 1024 });
    handedOver = true;
    return reply.send(stream);
  } finally {
    if (!handedOver) await fh.close().catch(() => undefined);
  }
}
