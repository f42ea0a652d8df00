/**
 * Tar batches of small files, in memory (a batch is at most a few MiB), written and read here rather than through
 * tar-stream's streams: a batch of 500 files was 500 entry streams, their events and a copy of every file into the
 * archive and out of it again, a tenth of the client's time on 10,000 small files (PERFORMANCE.md, "Small files: a
 * group per call"). The format is POSIX ustar with a pax `path` record for a name that is not short ASCII, which is
 * what efile's tar-stream writes and reads (the tests check both ways against it).
 */

const BLOCK = 512;
const END = Buffer.alloc(2 * BLOCK);
const padOf = (n: number) => (BLOCK - (n % BLOCK)) % BLOCK;
/** Bytes one entry of `size` takes: its header block and its data padded to a block. */
const entryBytes = (size: number) => BLOCK + size + padOf(size);

function octal(buf: Buffer, at: number, width: number, n: number) {
  buf.write(n.toString(8).padStart(width - 1, '0'), at, width - 1, 'ascii');
  buf[at + width - 1] = 0;
}

/** One ustar header block at `at` of `buf` (which is zeroed there). */
function writeHeader(buf: Buffer, at: number, name: Buffer, size: number, type: '0' | 'x') {
  name.copy(buf, at, 0, Math.min(name.length, 100));
  octal(buf, at + 100, 8, 0o644);
  octal(buf, at + 108, 8, 0);
  octal(buf, at + 116, 8, 0);
  octal(buf, at + 124, 12, size);
  octal(buf, at + 136, 12, 0);
  buf.write(type, at + 156, 1, 'ascii');
  buf.write('ustar\u000000', at + 257, 8, 'ascii');
  // The checksum is the sum of the header's bytes with its own field read as spaces.
  buf.fill(0x20, at + 148, at + 156);
  let sum = 0;
  for (let i = at; i < at + BLOCK; i++) sum += buf[i]!;
  buf.write(sum.toString(8).padStart(6, '0'), at + 148, 6, 'ascii');
  buf[at + 154] = 0;
  buf[at + 155] = 0x20;
}

/** The pax record `<length> path=<name>\n`, whose length counts its own digits. */
function paxPath(name: Buffer): Buffer {
  const body = name.length + ' path=\n'.length;
  let len = body + 1;
  while (String(len).length + body !== len) len = String(len).length + body;
  return Buffer.concat([Buffer.from(`${len} path=`), name, Buffer.from('\n')]);
}

/** A name fits a ustar header when it is printable ASCII of at most 100 bytes (tar-stream's rule, without prefix). */
const plain = (name: string) => name.length <= 100 && !/[^\x20-\x7e]/.test(name);

/** A batch being written: entries are placed one after another in one buffer, the files read straight into it. */
export class TarWriter {
  private readonly parts: { name: Buffer; pax: Buffer | null; size: number }[] = [];
  private total = 0;

  /** Reserves an entry; returns its data's offset in the archive `build` makes. */
  add(name: string, size: number): number {
    const n = Buffer.from(name);
    const pax = plain(name) ? null : paxPath(n);
    if (pax) this.total += entryBytes(pax.length);
    this.parts.push({ name: n, pax, size });
    const at = this.total + BLOCK;
    this.total += entryBytes(size);
    return at;
  }

  /**
   * The archive: every reserved entry's header, its data area left for the caller (`add` gave the offsets), the end
   * blocks after them. Zeroed, so padding and unused header fields are zeros.
   */
  build(): Buffer {
    const buf = Buffer.alloc(this.total + END.length);
    let at = 0;
    for (const p of this.parts) {
      if (p.pax) {
        writeHeader(buf, at, Buffer.from('PaxHeader'), p.pax.length, 'x');
        p.pax.copy(buf, at + BLOCK);
        at += entryBytes(p.pax.length);
      }
      writeHeader(buf, at, p.name, p.size, '0');
      at += entryBytes(p.size);
    }
    return buf;
  }
}

/** An archive of whole entries at once (the manifest, tests). */
export function tarPack(entries: { name: string; data: Buffer }[]): Buffer {
  const w = new TarWriter();
  const at = entries.map((e) => w.add(e.name, e.data.length));
  const buf = w.build();
  entries.forEach((e, i) => e.data.copy(buf, at[i]));
  return buf;
}

function field(buf: Buffer, at: number, width: number): string {
  const end = buf.indexOf(0, at);
  return buf.toString('utf8', at, end === -1 || end > at + width ? at + width : end);
}

function number(buf: Buffer, at: number, width: number): number {
  // Base-256 (GNU) for sizes past 8 GiB: the first byte's high bit set.
  if (buf[at]! & 0x80) {
    let n = buf[at]! & 0x7f;
    for (let i = 1; i < width; i++) n = n * 256 + buf[at + i]!;
    return n;
  }
  const s = buf
    .toString('ascii', at, at + width)
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]*$/.test(s)) throw new Error('malformed tar header');
  return s === '' ? 0 : parseInt(s, 8);
}

/**
 * The regular files of an archive, their data as views of `buf` (no copy). Folders and anything else are skipped;
 * pax `path` records and GNU long names name the next entry. A malformed archive (a header that does not sum, an
 * entry past the end, no end block) throws.
 */
export function tarUnpack(buf: Buffer): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  let at = 0;
  let longName: string | null = null;
  for (;;) {
    // An archive ends with a zero block; one cut before it (an answer cut short) is refused, not read in part.
    if (at + BLOCK > buf.length) throw new Error('malformed tar: an entry past the end');
    const h = buf.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    if (sum !== number(h, 148, 8)) throw new Error('malformed tar header: checksum');
    const size = number(h, 124, 12);
    const type = String.fromCharCode(h[156]!);
    const data = at + BLOCK;
    if (data + size > buf.length) throw new Error('malformed tar: an entry past the end');
    const body = buf.subarray(data, data + size);
    at = data + size + padOf(size);
    if (type === 'x') {
      longName = paxRecords(body).get('path') ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = field(body, 0, body.length);
      continue;
    }
    if (type === 'g') continue;
    const prefix = h.toString('ascii', 257, 262) === 'ustar' ? field(h, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    longName = null;
    if (type === '0' || type === '\0' || type === '7') out.push({ name, data: body });
  }
  return out;
}

function paxRecords(body: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const len = space === -1 ? NaN : Number(body.toString('ascii', at, space));
    if (!Number.isInteger(len) || len <= 0 || at + len > body.length) throw new Error('malformed pax record');
    const rec = body.toString('utf8', space + 1, at + len - 1);
    const eq = rec.indexOf('=');
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    at += len;
  }
  return out;
}
