import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { CommonCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';

/**
 * The worker's wire format (issue 10 §1): HTTP/1.1 over a Unix socket that only the front end's account may open.
 * Plain calls are `POST /call/<method>` with a JSON body `{ scope, args }` and a JSON answer; bodies stream as raw
 * HTTP bodies both ways (downloads, zips, chunks, Linux uploads), so neither side holds a whole file. A failure is
 * status 500+ or 4xx with `{ code, message, data }`, turned back into the same AppError on the front end.
 */
export interface WireError {
  code: string;
  message: string;
  data?: unknown;
}

export const toWire = (e: unknown): WireError =>
  isAppError(e)
    ? { code: e.code, message: e.message, data: e.data }
    : { code: CommonCodes.unavailable, message: e instanceof Error ? e.message : String(e) };

export const fromWire = (w: WireError): AppError =>
  new AppError(w.code as never, w.message, w.data === undefined ? undefined : { data: w.data });

export async function readJson<T>(req: IncomingMessage, max = 16 * 1024 * 1024): Promise<T> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > max) throw new AppError(CommonCodes.invalidInput, 'Request too large');
    parts.push(c);
  }
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as T;
}

/**
 * The JSON lines of a worker's streamed answer (a walk, a copy's progress). Decoded across pieces: a piece of the
 * socket may end inside a multi-byte character of a file name, which a per-piece toString would garble.
 */
export async function* jsonLines<T>(res: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<T> {
  const text = new StringDecoder('utf8');
  let buf = '';
  for await (const piece of res) {
    buf += text.write(piece);
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line) yield JSON.parse(line) as T;
    }
  }
}
