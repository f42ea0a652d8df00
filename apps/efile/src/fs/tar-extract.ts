import type { Readable } from 'node:stream';
import tar from 'tar-stream';
import { AppError } from '@hpc/server-kit';
import { CommonCodes, MalformedTarError, tarEntries } from '@hpc/contracts';
import { Kept } from './block-pool';
import { EfileText } from '../messages';

/**
 * A body of at most this many bytes whose length is declared (the client's batches: at most 500 files and 16 MiB)
 * is read whole and parsed at once (`readTarWhole`); longer or unannounced bodies stream through tar-stream.
 */
export const WHOLE_TAR_MAX = 24 * 1024 * 1024;

/** One entry of a tar stream: header fields we use, and a reader for exactly its data. */
export interface TarEntry {
  path: string;
  type: 'file' | 'dir' | 'other';
  size: number;
}

const malformed = () => new AppError(CommonCodes.verificationFailed, EfileText.tarMalformed);

/**
 * A streaming reader of ustar/pax/GNU tar (what `tar -cf -` writes), on `tar-stream`: a maintained parser of
 * untrusted input that honours pax `size` and `path` records, GNU long names and base-256 sizes (the hand-written
 * reader it replaces ignored pax sizes, so entries over 8 GiB were misread). For each entry it calls `onEntry` with a
 * function yielding the entry's data in pieces, and one reading it whole (use one or the other); data not consumed
 * is skipped. Paths are returned raw: the caller
 * validates them (no absolute paths, no `..`, no links).
 *
 * A body that ends inside an entry or without the end-of-archive blocks, or is not tar at all, rejects with "1010" (before or after some entries were
 * handed out: the caller decides what to undo). An error thrown by `onEntry` stops reading and is rethrown as is.
 * The source is never destroyed: what is left of it is drained, so the answer can still go out on the connection.
 */
export async function readTar(
  stream: Readable,
  onEntry: (e: TarEntry, data: () => AsyncGenerator<Buffer>, whole: () => Promise<Buffer[]>) => Promise<void>,
): Promise<void> {
  const extract = tar.extract();
  /** What stopped the reading from inside an entry: the caller's error, or "1010" for an entry cut short. */
  let entryError: unknown = null;
  /** The entry being handled: the answer waits for it, so nothing it writes outlives the call. */
  let current: Promise<void> = Promise.resolve();
  extract.on('entry', (header, entry, next) => {
    // One iterator for the whole entry, never `return()`ed: ending an entry stream early destroys the extractor.
    // Made only when the caller reads piece by piece: most entries of a batch are read whole (`whole`), and an
    // async iterator per entry was a visible share of a 10,000-file batch's CPU.
    let it: AsyncIterator<Buffer> | null = null;
    const pull = async () => {
      try {
        return await (it ??= (entry as unknown as AsyncIterable<Buffer>)[Symbol.asyncIterator]()).next();
      } catch {
        throw malformed(); // the body ended (or broke) inside this entry
      }
    };
    async function* data(): AsyncGenerator<Buffer> {
      for (let r = await pull(); !r.done; r = await pull()) yield r.value;
    }
    /** Waits for the entry's end (its data to `onData`, or dropped); the body ending first is "1010". */
    const toEnd = (onData?: (c: Buffer) => void) =>
      new Promise<void>((resolve, reject) => {
        if (onData) entry.on('data', onData);
        entry.once('end', resolve);
        entry.once('error', () => reject(malformed()));
        entry.once('close', () => reject(malformed())); // after 'end' this changes nothing
        if (!onData) entry.resume();
      });
    let wholeRead = false;
    const whole = async (): Promise<Buffer[]> => {
      wholeRead = true;
      const parts: Buffer[] = [];
      await toEnd((c) => parts.push(c));
      return parts;
    };
    const type =
      header.type === 'file' || header.type === 'contiguous-file'
        ? 'file'
        : header.type === 'directory'
          ? 'dir'
          : 'other';
    current = (async () => {
      await onEntry({ path: header.name, type, size: header.size ?? 0 }, data, whole);
      // Skip what the caller did not read.
      if (it) while (!(await pull()).done);
      else if (!wholeRead) await toEnd();
      next();
    })().catch((e: unknown) => {
      entryError ??= e;
      extract.destroy(e instanceof Error ? e : malformed());
    });
  });

  await new Promise<void>((resolve, reject) => {
    let settled = false;
    let ended = false;
    const fail = () => {
      if (settled) return;
      settled = true;
      stream.unpipe(extract);
      stream.resume(); // drain the rest of the body; the connection stays usable for the answer
      // Anything the parser itself reports (bad header, checksum, end inside an entry) is the body's fault.
      // Decided once the entry in hand has settled: its own error (e.g. "1501") takes precedence.
      const why = (): Error => (entryError instanceof Error ? entryError : malformed());
      void current.finally(() => reject(why()));
    };
    // The archive must end with its end-of-archive marker (zero blocks, as tar always writes): a body cut at an
    // entry boundary would otherwise read as a complete, shorter archive.
    let total = 0;
    let tail: Buffer = Buffer.alloc(0);
    stream.on('data', (b: Buffer) => {
      total += b.length;
      tail = b.length >= 512 ? b : Buffer.concat([tail, b]).subarray(-512);
    });
    extract.on('error', fail);
    extract.on('finish', () => {
      if (settled) return;
      const last = tail.subarray(-512);
      if (total === 0 || total % 512 !== 0 || last.length < 512 || last.some((x) => x !== 0)) return fail();
      settled = true;
      void current.finally(resolve);
    });
    stream.on('end', () => (ended = true));
    stream.on('error', fail);
    stream.on('close', () => {
      if (!ended) fail();
    });
    stream.pipe(extract);
  });
}

type OnEntry = Parameters<typeof readTar>[1];

/** Shared memory for whole batches, kept for the next (block-pool.ts's `Kept` says why). */
const wholeKept = new Kept<SharedArrayBuffer>(4);

/**
 * `readTar` for a body of a declared `length` up to WHOLE_TAR_MAX: read whole into shared memory (store threads take
 * its files as views, no copy: small-store.ts), parsed in one pass by contracts' batch tar, each entry handed to
 * `onEntry` in order, as readTar does. A body that ends short of `length`, breaks, or is not a whole archive is "1010";
 * an error of `onEntry` stops there and is rethrown as is. The memory is kept for the next batch once `settled`
 * resolves (what `onEntry` started with the views, e.g. stores in a thread, is done with them): a fresh 16 MiB
 * each time was a tenth of efile's event loop on 10,000 small files, its pages faulted in as they were copied into.
 */
export async function readTarWhole(
  stream: Readable,
  length: number,
  onEntry: OnEntry,
  settled: () => Promise<unknown>,
): Promise<void> {
  const sab = wholeKept.take() ?? new SharedArrayBuffer(WHOLE_TAR_MAX);
  try {
    await readInto(Buffer.from(sab, 0, length), stream, onEntry);
  } finally {
    await settled().catch(() => undefined);
    wholeKept.give(sab);
  }
}

async function readInto(buf: Buffer, stream: Readable, onEntry: OnEntry): Promise<void> {
  const length = buf.length;
  let at = 0;
  let over = false;
  await new Promise<void>((resolve, reject) => {
    let ended = false;
    stream.on('data', (b: Buffer) => {
      // More than declared (HTTP's framing does not let it happen; a caller might): refused below, the rest drained.
      if (over || at + b.length > length) {
        over = true;
        return;
      }
      b.copy(buf, at);
      at += b.length;
    });
    stream.once('end', () => {
      ended = true;
      resolve();
    });
    stream.once('error', () => reject(malformed()));
    stream.once('close', () => {
      if (!ended) reject(malformed());
    });
  });
  if (over || at !== length) throw malformed();
  let entries: ReturnType<typeof tarEntries>;
  try {
    entries = tarEntries(buf);
  } catch (e) {
    if (e instanceof MalformedTarError) throw malformed();
    throw e;
  }
  for (const e of entries) {
    const data = Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength);
    await onEntry(
      { path: e.name, type: e.type, size: data.length },
      async function* () {
        yield data;
      },
      () => Promise.resolve([data]),
    );
  }
}
