import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { CommonCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import type { FsScope } from './types';

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

/** Small files of a fast-transfer batch sent to the worker together: their names and checksums, then their bytes. */
export interface SmallFilesHead {
  scope: FsScope;
  overwrite: boolean;
  files: { dir: string; name: string; sha256: string; size: number }[];
}

/** At most this much in one request of small files: the front end sends 8 MiB at most, plus the names. */
export const SMALL_FILES_MAX_BYTES = 17 * 1024 * 1024;

/**
 * The body of a request of small files: a 4-byte length, the head's JSON, then each file's bytes in the head's
 * order. The head goes in the body, not a header: 64 folder paths of up to 4 KB would pass Node's 16 KB of headers.
 */
export function smallFilesBody(head: SmallFilesHead, data: Buffer[][]): Buffer[] {
  const json = Buffer.from(JSON.stringify(head));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length);
  return [len, json, ...data.flat()];
}

/** Reads a request of small files whole (bounded), each file's bytes a view of the one buffer read. */
export async function readSmallFiles(
  req: AsyncIterable<Buffer>,
  max = SMALL_FILES_MAX_BYTES,
): Promise<
  Omit<SmallFilesHead, 'files'> & { files: (SmallFilesHead['files'][number] & { data: Buffer })[] }
> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += c.length;
    if (n > max) throw new AppError(CommonCodes.invalidInput, 'Request too large');
    parts.push(c);
  }
  const body = Buffer.concat(parts);
  const bad = () => new AppError(CommonCodes.invalidInput, 'A malformed request of small files');
  if (body.length < 4) throw bad();
  const headEnd = 4 + body.readUInt32BE(0);
  if (headEnd > body.length) throw bad();
  let head: SmallFilesHead;
  try {
    head = JSON.parse(body.subarray(4, headEnd).toString('utf8')) as SmallFilesHead;
  } catch {
    throw bad();
  }
  let at = headEnd;
  const files = (Array.isArray(head.files) ? head.files : []).map((f) => {
    if (!Number.isSafeInteger(f.size) || f.size < 0 || at + f.size > body.length) throw bad();
    const data = body.subarray(at, (at += f.size));
    return { ...f, data };
  });
  if (at !== body.length) throw bad();
  return { scope: head.scope, overwrite: head.overwrite === true, files };
}
