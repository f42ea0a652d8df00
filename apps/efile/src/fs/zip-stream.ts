import fs from 'node:fs/promises';
import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { AppError } from '@hpc/server-kit';
import { checkOpened, followLink, lstatChecked } from './anchored';
import { fsError, notRegular } from './file-ops';
import { BLOCK, BlockWriter, takeBlock } from './block-pool';
import { mapLimit } from './concurrency';
import { isInternalName } from './names';
import { atListedFolder } from './listing';
import { ZipLayout, type ZipItem } from './zip-format';
import { FileCodes } from '@hpc/contracts';
import { EfileText } from '../messages';

export interface ZipSource {
  /** Real host path of a selected item. */
  host: string;
  /** Its name at the top of the archive. */
  name: string;
}

export interface ZipEntry extends ZipItem {
  /** Real host path to read (a link inside the roots is already resolved). */
  host: string;
}

/**
 * Walks the selection into archive entries (lstat with bounded concurrency, folders iteratively). Links are
 * followed only to files that stay inside the user's roots, never to folders (no cycles, no escape). Refuses with
 * "1508" past `fileLimit` files so a huge folder fails fast, before any byte is sent.
 *
 * Every folder is read through its own descriptor (`atListedFolder`: opened O_DIRECTORY|O_NOFOLLOW, checked to be
 * the real path the walk reached it by, its names read and lstat'ed as /proc/self/fd/<fd>/<name>). The walk used to
 * lstat a folder by path and read it by path later: a user who swapped the folder for a link in between got the
 * walk to list through the link, so the names of folders and empty files outside the scope (another folder of
 * theirs, /etc) went into a share recipient's zip and the sizes of files there into its Content-Length. A folder
 * swapped for a link now answers "1030"; one swapped back and forth is read as the real folder or not at all.
 * Each entry's `host` is the real path that was checked, which the writer opens again with `checkOpened`, so a
 * swap made after the walk is refused there.
 */
export async function collectEntries(
  sources: ZipSource[],
  inside: (realHost: string) => Promise<boolean>,
  fileLimit: number,
): Promise<ZipEntry[]> {
  const out: ZipEntry[] = [];
  let files = 0;
  /**
   * The entry of one item (null: skipped) whose real path is `host`, from `st`, its lstat, taken through `at` (the
   * path by which it was reached, anchored or checked). Counted here, but added to `out` by the caller in name
   * order: the lstats of a folder run 32 at once and finish in any order, and an archive's order must not depend
   * on that.
   */
  const entryOf = async (
    at: string,
    host: string,
    name: string,
    st: Stats | null,
  ): Promise<ZipEntry | null> => {
    if (!st) return null;
    if (st.isSymbolicLink()) {
      // Where it leads and what is there come from one descriptor: a link re-pointed meanwhile cannot pair the
      // real path of something inside with the size of something outside.
      const to = await followLink(at);
      if (!to?.stat.isFile() || !(await inside(to.real))) return null;
      st = to.stat;
      host = to.real;
    }
    if (st.isDirectory())
      return { host, name: name + '/', dir: true, size: 0, mtime: st.mtime, mode: st.mode };
    if (!st.isFile()) return null;
    if (++files > fileLimit) {
      throw new AppError(FileCodes.downloadLimit, EfileText.selectionTooManyFiles(fileLimit));
    }
    return { host, name, dir: false, size: st.size, mtime: st.mtime, mode: st.mode };
  };
  /** Adds the entries in the order given; returns the folders among them, to walk next. */
  const addAll = (entries: (ZipEntry | null)[], names: string[]) => {
    const dirs: { host: string; name: string }[] = [];
    entries.forEach((e, i) => {
      if (!e) return;
      out.push(e);
      if (e.dir) dirs.push({ host: e.host, name: names[i]! });
    });
    return dirs;
  };
  const stack: { host: string; name: string }[] = [];
  for (const s of sources)
    stack.push(...addAll([await entryOf(s.host, s.host, s.name, await lstatChecked(s.host))], [s.name]));
  while (stack.length > 0) {
    const d = stack.pop()!;
    // A folder that vanished or became unreadable since it was seen answers with its code, not a 500.
    const entries = await atListedFolder(d.host, async (dir) => {
      const names = (await fs.readdir(dir).catch(fsError)).filter((n) => !isInternalName(n)).sort();
      const full = names.map((n) => `${d.name}/${n}`);
      return addAll(
        await mapLimit(names, 32, async (n, i) => {
          const at = `${dir}/${n}`;
          return entryOf(at, path.join(d.host, n), full[i]!, await fs.lstat(at).catch(() => null));
        }),
        full,
      );
    });
    stack.push(...entries);
  }
  return out;
}

/** Blocks being filled ahead of the one being sent, and blocks handed to the socket whose write is not done. */
const AHEAD = 4;
const WRITES_IN_FLIGHT = 2;
/** Files read into one block at most: a block of 1 KB files would otherwise keep ~1000 descriptors open at once. */
const FILES_PER_BLOCK = 32;

/** A stretch of the archive: a record (header, descriptor, directory, end) made on demand, or a file's bytes. */
type Part =
  | { kind: 'record'; length: number; make: () => Buffer; bytes?: Buffer }
  | { kind: 'data'; length: number; file: number };

/** The archive in order; records that need a CRC are made when their turn comes, after the file was read. */
function* archiveParts(layout: ZipLayout, crcs: Uint32Array): Generator<Part> {
  const record = (length: number, make: () => Buffer): Part => ({ kind: 'record', length, make });
  const n = layout.items.length;
  for (let i = 0; i < n; i++) {
    yield record(layout.localLength(i), () => layout.localHeader(i));
    if (layout.dataLength(i) > 0) yield { kind: 'data', length: layout.dataLength(i), file: i };
    if (layout.descriptorLength(i) > 0)
      yield record(layout.descriptorLength(i), () => layout.descriptor(i, crcs[i]!));
  }
  for (let i = 0; i < n; i++) yield record(layout.centralLength(i), () => layout.centralRecord(i, crcs[i]!));
  yield record(layout.endLength(), () => layout.end());
}

/** Where a part's bytes from `from` go in a block. */
interface Piece {
  part: Part;
  from: number;
  at: number;
  length: number;
}

/**
 * The files being read: one descriptor per file (O_NOFOLLOW), opened by the first read of it and closed after the
 * last, which may run in parallel with earlier ones when the file spans blocks. Plain descriptors rather than
 * FileHandles: a FileHandle is an object with its own close promise and GC finalizer, which 10,000 short-lived
 * files do not need.
 */
class Sources {
  private readonly open = new Map<number, { fd: Promise<number>; reads: number; lastIssued: boolean }>();

  constructor(private readonly entries: readonly ZipEntry[]) {}

  /** Reads exactly `length` bytes of file `file` from `pos` into `buf` at `at`; fewer (it shrank) fails. */
  read(file: number, buf: Buffer, at: number, length: number, pos: number): Promise<void> {
    const e = this.entries[file]!;
    let src = this.open.get(file);
    if (!src) {
      src = { fd: openNoFollow(e.host), reads: 0, lastIssued: false };
      src.fd.catch(() => undefined);
      this.open.set(file, src);
    }
    const s = src;
    s.reads++;
    if (pos + length === e.size) s.lastIssued = true;
    return (async () => {
      try {
        const fd = await s.fd;
        for (let got = 0; got < length;) {
          const n = await readAt(fd, buf, at + got, length - got, pos + got);
          if (n === 0) throw new Error(`${e.name} shrank while it was being archived`);
          got += n;
        }
      } finally {
        if (--s.reads === 0 && s.lastIssued) this.release(file);
      }
    })();
  }

  private release(file: number) {
    const s = this.open.get(file);
    this.open.delete(file);
    s?.fd.then(
      (fd) => close(fd, () => undefined),
      () => undefined,
    );
  }

  /** Closes what is still open; only once no read is in flight, or a reused descriptor number could be read. */
  closeAll() {
    for (const file of [...this.open.keys()]) this.release(file);
  }
}

/**
 * Opens a file to archive, refusing one reached through a link swapped in above it (see `checkOpened`) and anything
 * swapped in since the walk that is not a regular file: O_NONBLOCK so a FIFO cannot hold a pool thread, then fstat
 * (see `openRegular`).
 */
const openNoFollow = (host: string) =>
  new Promise<number>((resolve, reject) =>
    open(host, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK, (err, fd) =>
      err ? reject(err) : resolve(fd),
    ),
  ).then((fd) =>
    new Promise<void>((resolve, reject) =>
      fstat(fd, (err, st) => (err ? reject(err) : st.isFile() ? resolve() : reject(notRegular(st)))),
    )
      .then(() => checkOpened(fd, host))
      .then(
        () => fd,
        (e: unknown) => {
          close(fd, () => undefined);
          throw e;
        },
      ),
  );

const readAt = (fd: number, buf: Buffer, at: number, length: number, pos: number) =>
  new Promise<number>((resolve, reject) =>
    read(fd, buf, at, length, pos, (err, n) => (err ? reject(err) : resolve(n))),
  );

/** A block with its pieces, and its reads (all settled, or the first failure). */
interface Filled {
  block: Buffer;
  used: number;
  pieces: Piece[];
  reads: Promise<unknown>;
  settled: Promise<unknown>;
}

/**
 * A store-only zip of `entries` (ZIP64 where needed, UTF-8 names, see zip-format.ts) with its exact size known
 * before the first byte, so the response carries Content-Length.
 *
 * `writeTo` lays the archive out in 1 MiB blocks from the shared pool: each block's headers and file bytes are
 * read or copied straight into place (files read in parallel, AHEAD blocks before the one being sent), the
 * CRC-32 of each file is taken natively from the block in order, then the block goes to the socket and comes back
 * to the pool when the write callback says the kernel has it. So memory stays at (AHEAD + WRITES_IN_FLIGHT) MiB
 * per zip whatever the folder, no garbage is made per file, and a slow client holds the reads back (backpressure).
 * Each file is read up to the size taken at collection time, the size the archive announced: a file that grew
 * since is archived as it was then; one that shrank or vanished fails the zip, which destroys the output (the
 * client sees fewer bytes than announced). When the client goes away, reading stops and every file is closed.
 */
export function zipArchive(entries: ZipEntry[]): { size: number; writeTo: (out: Writable) => Promise<void> } {
  const layout = new ZipLayout(entries);
  return { size: layout.totalSize, writeTo: (out) => writeArchive(layout, out) };
}

async function writeArchive(layout: ZipLayout<ZipEntry>, out: Writable): Promise<void> {
  const entries = layout.items;
  const crcs = new Uint32Array(entries.length);
  const parts = archiveParts(layout, crcs);
  let part = parts.next();
  let partOffset = 0;
  const sources = new Sources(entries);

  const fill = (): Filled => {
    const block = takeBlock();
    const pieces: Piece[] = [];
    const reads: Promise<void>[] = [];
    let used = 0;
    while (used < BLOCK && !part.done) {
      const p = part.value;
      if (p.kind === 'data' && reads.length === FILES_PER_BLOCK) break;
      const length = Math.min(BLOCK - used, p.length - partOffset);
      if (p.kind === 'data') reads.push(sources.read(p.file, block, used, length, partOffset));
      pieces.push({ part: p, from: partOffset, at: used, length });
      used += length;
      partOffset += length;
      if (partOffset === p.length) {
        part = parts.next();
        partOffset = 0;
      }
    }
    const all = Promise.all(reads);
    all.catch(() => undefined); // awaited below; a block dropped after a failure must not be an unhandled rejection
    return { block, used, pieces, reads: all, settled: Promise.allSettled(reads) };
  };

  // CRCs in archive order (a file's pieces come before its descriptor), then the records that needed them.
  const complete = (b: Filled) => {
    for (const { part: p, from, at, length } of b.pieces) {
      if (p.kind === 'data') {
        crcs[p.file] = zlib.crc32(b.block.subarray(at, at + length), crcs[p.file]);
        continue;
      }
      const bytes = (p.bytes ??= p.make());
      bytes.copy(b.block, at, from, from + length);
      if (from + length === bytes.length) p.bytes = undefined;
    }
  };

  const writer = new BlockWriter(out, WRITES_IN_FLIGHT);
  const ahead: Filled[] = [];
  let current: Filled | undefined;
  try {
    for (;;) {
      while (!writer.gone && ahead.length < AHEAD && !part.done) ahead.push(fill());
      current = ahead.shift();
      if (!current || writer.gone) break;
      await Promise.race([current.reads, writer.closed]);
      // Gone while reads may still be filling the block: it must not go back to the pool (the GC takes it).
      if (writer.gone) break;
      complete(current);
      await writer.send(current.block, current.used);
    }
    await writer.end();
  } catch (err) {
    // Cut the output short (the client sees fewer bytes than announced); the caller reports the error. Passing it
    // to destroy() would also emit it on the stream, where nobody listens.
    out.destroy();
    throw err;
  } finally {
    // Reads still running write into blocks and use descriptors: let them end before the descriptors close.
    await Promise.all([current, ...ahead].flatMap((b) => (b ? [b.settled] : [])));
    sources.closeAll();
  }
}
