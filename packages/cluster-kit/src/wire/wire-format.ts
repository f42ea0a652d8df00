import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { CommonCodes, type ServerText } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { ClusterKitText } from '../messages';

/**
 * The wire between a service's front end and a user's worker (issue 10 §1): HTTP/1.1 over a Unix socket that only
 * the front end's account may open. A call is `POST /call/<name>`; arguments travel as JSON (in the body, or in the
 * `x-args` header when the body is the bytes of an upload); bodies stream as raw HTTP bodies both ways, so neither
 * side holds a whole file. A failure is status 4xx/5xx with `{ error: { code, message, data } }`, turned back into
 * the same AppError on the front end. What each call sends is declared once in a call table (call-table.ts).
 */
export interface WireError {
  code: string;
  message: string;
  /** The message in Chinese, when the error has one of its own (AppError's `zh`). */
  zh?: string;
  data?: unknown;
}

/**
 * An error as it crosses to the front end. One the worker did not expect (the system's own, e.g. `EISDIR` on a file
 * swapped for a folder meanwhile) is said by its errno in both languages: its text names host paths
 * (`/proc/self/fd/23/sub`) the user must not see; the whole of it goes to the worker's stderr, the service's log.
 */
export function toWire(e: unknown): WireError {
  if (isAppError(e)) return { code: e.code, message: e.message, ...(e.zh ? { zh: e.zh } : {}), data: e.data };
  const errno = (e as NodeJS.ErrnoException | null)?.code;
  process.stderr.write(
    JSON.stringify({ level: 50, msg: 'worker call failed', err: e instanceof Error ? e.stack : String(e) }) +
      '\n',
  );
  return { code: CommonCodes.unavailable, ...wireText(ClusterKitText.workerCallFailed(errno ?? 'error')) };
}

export function fromWire(w: WireError): AppError {
  // Relayed as it came: with its Chinese when the worker's error had one, else English only.
  const msg: string | ServerText = typeof w.zh === 'string' ? { en: w.message, zh: w.zh } : w.message;
  return new AppError(w.code as never, msg, w.data === undefined ? undefined : { data: w.data });
}

/** A message for the occasion as a {@link WireError}'s text: its English, and its Chinese beside it. */
export const wireText = (t: ServerText): Pick<WireError, 'message' | 'zh'> => ({ message: t.en, zh: t.zh });

/**
 * The failure of a call whose worker stopped (killed, crashed, idle exit racing the request): retry. Known by its
 * English, which the launcher's answer for a worker that died mid-hand-off carries too.
 */
export const gone = () => new AppError(CommonCodes.unavailable, ClusterKitText.workerGone);
export const isGone = (e: unknown) =>
  isAppError(e) && e.code === CommonCodes.unavailable && e.message === ClusterKitText.workerGone.en;

/** Reads a body whole, at most `max` bytes (`tooMuch`, by default a `1004` refusal, as soon as it has more). */
export async function readWhole(
  body: AsyncIterable<Buffer>,
  max: number,
  tooMuch = () => new AppError(CommonCodes.invalidInput, ClusterKitText.requestTooLarge),
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    n += c.length;
    if (n > max) throw tooMuch();
    parts.push(c);
  }
  return Buffer.concat(parts);
}

/** Reads a JSON body whole, at most `max` bytes. */
export async function readJson<T>(req: IncomingMessage, max = 16 * 1024 * 1024): Promise<T> {
  return JSON.parse((await readWhole(req as AsyncIterable<Buffer>, max)).toString('utf8') || '{}') as T;
}

/** Arguments of a call whose body is bytes travel in this header (base64url JSON). */
export const ARGS_HEADER = 'x-args';
export const encodeArgsHeader = (args: unknown) => Buffer.from(JSON.stringify(args)).toString('base64url');
export const decodeArgsHeader = <T>(req: IncomingMessage): T =>
  JSON.parse(Buffer.from(String(req.headers[ARGS_HEADER] ?? ''), 'base64url').toString('utf8') || '{}') as T;

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
