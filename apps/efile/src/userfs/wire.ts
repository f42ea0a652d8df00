import { CommonCodes, type ServerText } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { FsScope } from './types';
import { readWhole } from '@hpc/cluster-kit';
import { EfileText } from '../messages';

/** Small files of a fast-transfer batch sent to the worker together: their names and checksums, then their bytes. */
export interface SmallFilesHead {
  scope: FsScope;
  overwrite: boolean;
  files: { dir: string; name: string; sha256: string; size: number }[];
}

/** At most this much in one request of small files: the front end sends 8 MiB at most, plus the names. */
export const SMALL_FILES_MAX_BYTES = 17 * 1024 * 1024;

/**
 * A framed body: a 4-byte length, a head's JSON, then the bytes the head describes, in its order. The head goes in the
 * body, not a header: 64 folder paths of up to 4 KB would pass Node's 16 KB of headers.
 */
export function framed(head: unknown, data: Buffer[]): Buffer[] {
  const json = Buffer.from(JSON.stringify(head));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length);
  return [len, json, ...data];
}

/**
 * A framed body read whole (at most `max` bytes): its head, and where the bytes after it start. `malformed` is the
 * refusal of a body that is not one (a request or an answer of small files).
 */
export async function readFramed<T>(
  body: AsyncIterable<Buffer>,
  max: number,
  malformed: ServerText,
): Promise<{ head: T; body: Buffer; at: number }> {
  const all = await readWhole(body, max);
  const bad = () => new AppError(CommonCodes.invalidInput, malformed);
  if (all.length < 4) throw bad();
  const headEnd = 4 + all.readUInt32BE(0);
  if (headEnd > all.length) throw bad();
  try {
    return { head: JSON.parse(all.subarray(4, headEnd).toString('utf8')) as T, body: all, at: headEnd };
  } catch {
    throw bad();
  }
}

/**
 * Gives each item its bytes: consecutive views (not copies) of a framed body from `at`, of the sizes `sizeOf` tells;
 * `undefined` where a size is not a whole number of bytes or the sizes do not add up to exactly the rest of the body.
 */
export function sliceFramed<T>(
  body: Buffer,
  at: number,
  items: T[],
  sizeOf: (item: T) => unknown,
): (T & { data: Buffer })[] | undefined {
  const out: (T & { data: Buffer })[] = [];
  for (const item of items) {
    const size = sizeOf(item);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || at + size > body.length)
      return;
    out.push({ ...item, data: body.subarray(at, (at += size)) });
  }
  return at === body.length ? out : undefined;
}

/** The body of a request of small files: the head (names and checksums), then each file's bytes. */
export function smallFilesBody(head: SmallFilesHead, data: Buffer[][]): Buffer[] {
  return framed(head, data.flat());
}

/** Reads a request of small files whole (bounded), each file's bytes a view of the one buffer read. */
export async function readSmallFiles(
  req: AsyncIterable<Buffer>,
  max = SMALL_FILES_MAX_BYTES,
): Promise<
  Omit<SmallFilesHead, 'files'> & { files: (SmallFilesHead['files'][number] & { data: Buffer })[] }
> {
  const malformed = EfileText.malformedSmallFilesRequest;
  const { head, body, at: start } = await readFramed<SmallFilesHead>(req, max, malformed);
  const files = sliceFramed(body, start, Array.isArray(head.files) ? head.files : [], (f) => f?.size);
  if (!files) throw new AppError(CommonCodes.invalidInput, malformed);
  return { scope: head.scope, overwrite: head.overwrite === true, files };
}
