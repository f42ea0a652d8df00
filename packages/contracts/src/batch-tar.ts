/**
 * The tar of a fast-transfer batch (`PUT /fastrans/batch.action`, `POST /fastrans/read-batch.action`), in memory: a
 * batch is at most a few MiB, so it is written and read as one buffer, here rather than through tar-stream's streams
 * (a batch of 500 files was 500 entry streams, their events and a copy of every file into the archive and out of it
 * again: PERFORMANCE.md, "Small files: a group per call"). The client writes its upload batches and reads its download
 * batches with it; efile reads an upload batch whose length it knows with it (tar-stream for the rest).
 *
 * Written: POSIX ustar, with a pax `path` record for a name that is not short printable ASCII. Read: ustar, pax
 * `path` and `size` records, GNU long names, base-256 sizes (what `tar -cf` and tar-stream write). Bytes only
 * (Uint8Array), no Node API: this package is also the browser's.
 */

const BLOCK = 512;
const END_BLOCKS = 2;
const padOf = (n: number) => (BLOCK - (n % BLOCK)) % BLOCK;
/** Bytes one entry of `size` takes: its header block and its data padded to a block. */
const entryBytes = (size: number) => BLOCK + size + padOf(size);
const utf8 = new TextEncoder();
const text = new TextDecoder();

/** What a read archive refuses: a header that does not sum, an entry past the end, no end block, a bad record. */
export class MalformedTarError extends Error {
  constructor(why: string) {
    super(`malformed tar: ${why}`);
  }
}

function ascii(buf: Uint8Array, at: number, s: string) {
  for (let i = 0; i < s.length; i++) buf[at + i] = s.charCodeAt(i);
}

function octal(buf: Uint8Array, at: number, width: number, n: number) {
  ascii(buf, at, n.toString(8).padStart(width - 1, '0'));
  buf[at + width - 1] = 0;
}

/** One ustar header block at `at` of `buf` (which is zeroed there). */
function writeHeader(buf: Uint8Array, at: number, name: Uint8Array, size: number, type: '0' | 'x') {
  buf.set(name.subarray(0, 100), at);
  octal(buf, at + 100, 8, 0o644);
  octal(buf, at + 108, 8, 0);
  octal(buf, at + 116, 8, 0);
  octal(buf, at + 124, 12, size);
  octal(buf, at + 136, 12, 0);
  ascii(buf, at + 156, type);
  ascii(buf, at + 257, 'ustar\u000000');
  // The checksum is the sum of the header's bytes with its own field read as spaces.
  buf.fill(0x20, at + 148, at + 156);
  let sum = 0;
  for (let i = at; i < at + BLOCK; i++) sum += buf[i]!;
  ascii(buf, at + 148, sum.toString(8).padStart(6, '0'));
  buf[at + 154] = 0;
  buf[at + 155] = 0x20;
}

/** The pax record `<length> path=<name>\n`, whose length counts its own digits. */
function paxPath(name: Uint8Array): Uint8Array {
  const body = name.length + ' path=\n'.length;
  let len = body + 1;
  while (String(len).length + body !== len) len = String(len).length + body;
  const head = utf8.encode(`${len} path=`);
  const rec = new Uint8Array(len);
  rec.set(head);
  rec.set(name, head.length);
  rec[len - 1] = 0x0a;
  return rec;
}

/** A name fits a ustar header when it is printable ASCII of at most 100 bytes (tar-stream's rule, without prefix). */
const plain = (name: string) => name.length <= 100 && !/[^\x20-\x7e]/.test(name);

/**
 * A batch being written: entries are placed one after another in one buffer, the files read straight into it. With
 * `{ end: false }` the buffer is a piece of an archive sent in pieces (no end blocks; `TAR_END` closes the archive).
 */
export class TarWriter {
  private readonly parts: { name: Uint8Array; pax: Uint8Array | null; size: number }[] = [];
  private total = 0;
  private readonly end: boolean;

  constructor(o: { end?: boolean } = {}) {
    this.end = o.end ?? true;
  }

  /** Reserves an entry; returns its data's offset in the archive `build` makes. */
  add(name: string, size: number): number {
    const n = utf8.encode(name);
    const pax = plain(name) ? null : paxPath(n);
    if (pax) this.total += entryBytes(pax.length);
    this.parts.push({ name: n, pax, size });
    const at = this.total + BLOCK;
    this.total += entryBytes(size);
    return at;
  }

  /**
   * The archive: every reserved entry's header, its data area left for the caller (`add` gave the offsets), the end
   * blocks after them, in `into` when given (a Buffer, say: allocated zeroed, at least `size()` bytes), else a new
   * Uint8Array. Zeroed, so padding and unused header fields are zeros.
   */
  build(into?: Uint8Array): Uint8Array {
    const buf = into ?? new Uint8Array(this.size());
    let at = 0;
    for (const p of this.parts) {
      if (p.pax) {
        writeHeader(buf, at, utf8.encode('PaxHeader'), p.pax.length, 'x');
        buf.set(p.pax, at + BLOCK);
        at += entryBytes(p.pax.length);
      }
      writeHeader(buf, at, p.name, p.size, '0');
      at += entryBytes(p.size);
    }
    return buf;
  }

  /** The archive's length: the entries and (unless `end: false`) the end blocks. */
  size(): number {
    return this.total + (this.end ? END_BLOCKS * BLOCK : 0);
  }
}

/** What ends an archive: two zero blocks. */
export const TAR_END: Uint8Array = new Uint8Array(END_BLOCKS * BLOCK);

/** An archive of whole entries at once (the manifest, tests); with `{ end: false }`, a piece of one. */
export function tarPack(
  entries: { name: string; data: Uint8Array }[],
  o: { end?: boolean } = {},
): Uint8Array {
  const w = new TarWriter(o);
  const at = entries.map((e) => w.add(e.name, e.data.length));
  const buf = w.build();
  entries.forEach((e, i) => buf.set(e.data, at[i]));
  return buf;
}

/** A NUL-terminated text field of a header. */
function field(buf: Uint8Array, at: number, width: number): string {
  let end = at;
  while (end < at + width && buf[end] !== 0) end++;
  return text.decode(buf.subarray(at, end));
}

function number(buf: Uint8Array, at: number, width: number): number {
  // Base-256 (GNU) for sizes past 8 GiB: the first byte's high bit set.
  if (buf[at]! & 0x80) {
    let n = buf[at]! & 0x7f;
    for (let i = 1; i < width; i++) n = n * 256 + buf[at + i]!;
    if (!Number.isSafeInteger(n)) throw new MalformedTarError('a number too large');
    return n;
  }
  let n = 0;
  let i = at;
  while (i < at + width && buf[i] === 0x20) i++; // leading spaces
  for (; i < at + width; i++) {
    const c = buf[i]!;
    if (c === 0 || c === 0x20) break;
    if (c < 0x30 || c > 0x37) throw new MalformedTarError('a header field that is not a number');
    n = n * 8 + (c - 0x30);
  }
  return n;
}

/** One entry of a read archive: its name as written, its kind, its data as a view of the archive (no copy). */
export interface BatchTarEntry {
  name: string;
  type: 'file' | 'dir' | 'other';
  data: Uint8Array;
}

/**
 * Every entry of an archive in order (pax and GNU name records applied to the entry they name, not returned). Names
 * are returned as written: the caller validates them. An archive must end with its end block after whole entries:
 * one cut anywhere (an answer or a body cut short) throws MalformedTarError rather than reading as a shorter archive.
 */
export function tarEntries(buf: Uint8Array): BatchTarEntry[] {
  const out: BatchTarEntry[] = [];
  let at = 0;
  let longName: string | null = null;
  let paxSize: number | null = null;
  for (;;) {
    if (at + BLOCK > buf.length) throw new MalformedTarError('an entry past the end');
    const h = buf.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    if (sum !== number(h, 148, 8)) throw new MalformedTarError('a header whose checksum differs');
    const size = paxSize ?? number(h, 124, 12);
    paxSize = null;
    const type = String.fromCharCode(h[156]!);
    const start = at + BLOCK;
    if (start + size > buf.length) throw new MalformedTarError('an entry past the end');
    const data = buf.subarray(start, start + size);
    at = start + size + padOf(size);
    if (type === 'x') {
      const rec = paxRecords(data);
      longName = rec.get('path') ?? longName;
      const s = rec.get('size');
      if (s !== undefined) {
        if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)))
          throw new MalformedTarError('a pax size that is not a number');
        paxSize = Number(s);
      }
      continue;
    }
    if (type === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === 'g' || type === 'K') continue;
    const prefix = field(h, 257, 6) === 'ustar' ? field(h, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    longName = null;
    const kind = type === '0' || type === '\0' || type === '7' ? 'file' : type === '5' ? 'dir' : 'other';
    out.push({ name, type: kind, data });
  }
  return out;
}

/** The regular files of an archive (folders and anything else skipped), their data as views of `buf`. */
export function tarFiles(buf: Uint8Array): { name: string; data: Uint8Array }[] {
  return tarEntries(buf).flatMap((e) => (e.type === 'file' ? [{ name: e.name, data: e.data }] : []));
}

function paxRecords(body: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const len = space === -1 ? NaN : Number(text.decode(body.subarray(at, space)));
    if (!Number.isInteger(len) || len <= space - at || at + len > body.length)
      throw new MalformedTarError('a pax record');
    const rec = text.decode(body.subarray(space + 1, at + len - 1));
    const eq = rec.indexOf('=');
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    at += len;
  }
  return out;
}
