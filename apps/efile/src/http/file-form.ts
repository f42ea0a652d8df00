import type { Readable } from 'node:stream';
import { AppError } from '@hpc/server-kit';
import { CommonCodes, type ServerText } from '@hpc/contracts';
import { EfileText } from '../messages';

export interface FileFormLimits {
  /** Most text fields before the file part. */
  fields: number;
  /** Most bytes of the part headers and text fields together. */
  headBytes: number;
  /** Most bytes of the file part ("1011" beyond). */
  fileBytes: number;
}

export interface FileForm {
  fields: Record<string, string>;
  filename: string;
  /**
   * The file part: exactly `length` bytes (the chunk protocol announces `currentChunkSize` in a field before the
   * file), as they arrive (subarrays of the socket's pieces, not copies); the closing delimiter must follow
   * ("1010" otherwise), so the bytes are never searched.
   */
  file(length: number): AsyncIterable<Buffer>;
  /** Stops reading: what is left of the body is discarded, the connection stays usable for the answer. */
  discard(): void;
}

/** A multipart body efile cannot read (`EfileText.multipart…`: what is wrong with it). */
const malformed = (text: ServerText) => new AppError(CommonCodes.incompleteParams, text);

/** The boundary of a `multipart/form-data` content type (RFC 2046: 1–70 characters, maybe quoted), or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/**
 * Pulls a readable's pieces one at a time. Unlike the stream's own async iterator it never destroys the request
 * when the reader stops early, so an error can still be answered on the same connection (`discard` lets Node
 * drain the rest).
 */
function puller(s: Readable) {
  const queue: Buffer[] = [];
  let ended = false;
  let failed: AppError | null = null;
  let wake: (() => void) | null = null;
  const notify = () => wake?.();
  const onData = (b: Buffer) => {
    queue.push(b);
    if (queue.length >= 4) s.pause();
    notify();
  };
  const onEnd = () => {
    ended = true;
    notify();
  };
  // A client that goes away mid-chunk (a paused upload aborts its requests) is the client's doing, not a server
  // fault: "1010", a 4xx that is not logged as an error.
  const gone = () => new AppError(CommonCodes.verificationFailed, EfileText.chunkEndedEarly);
  const onError = () => {
    failed ??= gone();
    notify();
  };
  const onClose = () => {
    if (!ended) failed ??= gone();
    notify();
  };
  s.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  return {
    next: async (): Promise<Buffer | null> => {
      for (;;) {
        const b = queue.shift();
        if (b) {
          if (queue.length < 2) s.resume();
          return b;
        }
        if (failed) throw failed;
        if (ended) return null;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    },
    release: () => {
      s.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      queue.length = 0;
      s.resume();
    },
  };
}

/**
 * Reads a `multipart/form-data` body shaped as simple-uploader.js (and any FormData with the file appended last)
 * sends it: text fields, then one file part whose bytes are handed on as they arrive. Written for the chunk upload,
 * the hottest request of the service: a general parser (busboy) spent ~10 % of a chunk's time in stream and event
 * machinery and searched every byte for the boundary; here the file's bytes are passed on without copying or
 * searching (see `FileForm.file`). Anything after the file part is ignored.
 */
export async function readFileForm(
  body: Readable,
  boundary: string,
  limits: FileFormLimits,
): Promise<FileForm> {
  const pull = puller(body);
  const dashBoundary = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  let buf: Buffer = Buffer.alloc(0);
  let consumed = 0; // head bytes already parsed (and dropped from buf)
  // Only called while the head is incomplete: needing more beyond the limit means the fields are too large.
  const more = async () => {
    if (consumed + buf.length > limits.headBytes) throw malformed(EfileText.multipartFieldsTooLarge);
    const b = await pull.next();
    if (!b) throw malformed(EfileText.multipartEndedBeforeFile);
    buf = buf.length ? Buffer.concat([buf, b]) : b;
  };
  try {
    let pos: number;
    while ((pos = buf.indexOf(dashBoundary)) < 0) await more();
    pos += dashBoundary.length;
    for (let n = 0; ; n++) {
      while (buf.length < pos + 2) await more();
      if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) throw malformed(EfileText.multipartNoFilePart);
      if (buf[pos] !== 0x0d || buf[pos + 1] !== 0x0a) throw malformed(EfileText.multipartBadBoundary);
      pos += 2;
      let end: number;
      while ((end = buf.indexOf('\r\n\r\n', pos)) < 0) await more();
      const { name, filename } = disposition(buf.toString('utf8', pos, end));
      pos = end + 4;
      if (consumed + pos > limits.headBytes) throw malformed(EfileText.multipartFieldsTooLarge);
      if (filename !== undefined) {
        const rest = buf.subarray(pos);
        const file = (length: number) => fileOfLength(rest, pull.next, delimiter, length, limits.fileBytes);
        return { fields, filename, file, discard: () => pull.release() };
      }
      if (n >= limits.fields) throw malformed(EfileText.multipartTooManyFields);
      while ((end = buf.indexOf(delimiter, pos)) < 0) await more();
      if (consumed + end > limits.headBytes) throw malformed(EfileText.multipartFieldsTooLarge);
      if (name !== undefined) fields[name] = buf.toString('utf8', pos, end);
      consumed += end + delimiter.length;
      buf = buf.subarray(end + delimiter.length);
      pos = 0;
    }
  } catch (e) {
    pull.release();
    throw e;
  }
}

/** `name` and `filename` of a part's Content-Disposition header (the only header the chunk protocol needs). */
function disposition(headers: string): { name?: string; filename?: string } {
  const line = headers.split('\r\n').find((h) => /^content-disposition\s*:/i.test(h));
  if (!line) throw malformed(EfileText.multipartNoDisposition);
  const param = (key: string) => {
    const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]*)`, 'i').exec(line);
    return m ? (m[1] ?? m[2])?.replace(/\\(.)/g, '$1') : undefined;
  };
  return { name: param('name'), filename: param('filename') };
}

/** Exactly `length` bytes of file, then the closing delimiter (checked, not searched for). */
async function* fileOfLength(
  first: Buffer,
  next: () => Promise<Buffer | null>,
  delimiter: Buffer,
  length: number,
  max: number,
): AsyncGenerator<Buffer> {
  if (length > max) throw new AppError(CommonCodes.tooLarge, EfileText.chunkTooLarge);
  let piece: Buffer | null = first;
  let left = length;
  while (left > 0) {
    if (!piece) throw new AppError(CommonCodes.verificationFailed, EfileText.chunkIncomplete);
    if (piece.length > left) {
      yield piece.subarray(0, left);
      piece = piece.subarray(left);
      left = 0;
      break;
    }
    if (piece.length) yield piece;
    left -= piece.length;
    piece = left > 0 ? await next() : Buffer.alloc(0);
  }
  let after = piece ?? Buffer.alloc(0);
  while (after.length < delimiter.length) {
    const more = await next();
    if (!more) break;
    after = Buffer.concat([after, more]);
  }
  if (!after.subarray(0, delimiter.length).equals(delimiter))
    throw new AppError(CommonCodes.verificationFailed, EfileText.chunkSizeNotAnnounced);
}
