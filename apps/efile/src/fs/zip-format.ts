/**
 * The records of a store-only zip (PKWARE APPNOTE 6.3): local headers, data descriptors, the central directory and
 * the end records, with every offset and the archive's exact size known before the first byte is written (file
 * sizes come from the collection; stored data is as long as the file). Only the CRC-32s are filled in later, by
 * the writer, as it reads each file.
 *
 * Choices, each for a reader we must satisfy:
 * - General-purpose bit 3 (sizes and CRC in a data descriptor after the data): the CRC is only known after the
 *   file has been read, and a file is read once, as it is sent.
 * - Bit 11: names are UTF-8, so Chinese names survive (unzip, 7-Zip, Windows, macOS).
 * - ZIP64 only where needed: an entry of 4 GiB or more gets the ZIP64 extra field in its local header (sizes
 *   0xFFFFFFFF there) and a 24-byte descriptor (how streaming readers such as libarchive tell the descriptor's
 *   size); an entry whose local header starts past 4 GiB gets its offset in the central ZIP64 extra field; the ZIP64
 *   end records are written when the entry count, the directory's size or its offset overflow the classic ones.
 * - The Info-ZIP "UT" extra field carries the UTC modification time next to the DOS one (local time, 2 s steps).
 */

export interface ZipItem {
  /** Name in the archive, `/`-separated; folders end with `/`. */
  name: string;
  dir: boolean;
  size: number;
  mtime: Date;
  mode: number;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const LOCAL_FIXED = 30;
const CENTRAL_FIXED = 46;
const UT_EXTRA = 9;
const ZIP64_LOCAL_EXTRA = 20;
const END = 22;
const END64 = 56 + 20;
const FLAG_DESCRIPTOR = 1 << 3;
const FLAG_UTF8 = 1 << 11;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Unix (3) in the high byte, so unzip restores the permission bits from the external attributes. */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;

/** Local date and time in MS-DOS format, clamped to its 1980–2107 range. */
function dosDateTime(d: Date): { date: number; time: number } {
  const y = d.getFullYear();
  if (Number.isNaN(y) || y < 1980) return { date: (1 << 5) | 1, time: 0 };
  if (y > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((y - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
  };
}

function writeUT(buf: Buffer, at: number, mtime: Date): void {
  buf.writeUInt16LE(0x5455, at);
  buf.writeUInt16LE(5, at + 2);
  buf.writeUInt8(1, at + 4);
  buf.writeUInt32LE(Math.min(Math.max(Math.floor(mtime.getTime() / 1000), 0), 0x7fffffff) || 0, at + 5);
}

/**
 * One archive's layout: offsets and lengths of every record, and the bytes of each record on request.
 * Memory is one name buffer and one offset per entry (the entries are already in memory, from the walk).
 */
export class ZipLayout<T extends ZipItem = ZipItem> {
  private readonly names: Buffer[];
  /** Offset of each entry's local header. */
  private readonly offsets: number[];
  private readonly cdOffset: number;
  private readonly cdSize: number;
  readonly totalSize: number;

  constructor(readonly items: readonly T[]) {
    this.names = items.map((e) => Buffer.from(e.name, 'utf8'));
    this.offsets = new Array<number>(items.length);
    let at = 0;
    let cd = 0;
    items.forEach((_, i) => {
      this.offsets[i] = at;
      at += this.localLength(i) + this.dataLength(i) + this.descriptorLength(i);
      cd += this.centralLength(i);
    });
    this.cdOffset = at;
    this.cdSize = cd;
    this.totalSize = at + cd + this.endLength();
  }

  private big(i: number): boolean {
    return this.items[i]!.size >= MAX32;
  }

  localLength(i: number): number {
    return LOCAL_FIXED + this.names[i]!.length + UT_EXTRA + (this.big(i) ? ZIP64_LOCAL_EXTRA : 0);
  }

  dataLength(i: number): number {
    return this.items[i]!.dir ? 0 : this.items[i]!.size;
  }

  /** Folders carry no data and their (zero) CRC and sizes in the header; files have a descriptor. */
  descriptorLength(i: number): number {
    if (this.items[i]!.dir) return 0;
    return this.big(i) ? 24 : 16;
  }

  private central64Fields(i: number): number {
    return (this.big(i) ? 2 : 0) + (this.offsets[i]! >= MAX32 ? 1 : 0);
  }

  centralLength(i: number): number {
    const n = this.central64Fields(i);
    return CENTRAL_FIXED + this.names[i]!.length + UT_EXTRA + (n > 0 ? 4 + 8 * n : 0);
  }

  private needsEnd64(): boolean {
    return this.items.length >= MAX16 || this.cdOffset >= MAX32 || this.cdSize >= MAX32;
  }

  endLength(): number {
    return END + (this.needsEnd64() ? END64 : 0);
  }

  localHeader(i: number): Buffer {
    const e = this.items[i]!;
    const name = this.names[i]!;
    const big = this.big(i);
    const buf = Buffer.alloc(this.localLength(i));
    const { date, time } = dosDateTime(e.mtime);
    buf.writeUInt32LE(0x04034b50, 0);
    buf.writeUInt16LE(big ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
    buf.writeUInt16LE(FLAG_UTF8 | (e.dir ? 0 : FLAG_DESCRIPTOR), 6);
    buf.writeUInt16LE(0, 8); // stored
    buf.writeUInt16LE(time, 10);
    buf.writeUInt16LE(date, 12);
    // CRC and sizes: zero (in the descriptor) for files, zero for folders; 0xFFFFFFFF points to the ZIP64 field.
    if (big) {
      buf.writeUInt32LE(MAX32, 18);
      buf.writeUInt32LE(MAX32, 22);
    }
    buf.writeUInt16LE(name.length, 26);
    buf.writeUInt16LE(buf.length - LOCAL_FIXED - name.length, 28);
    name.copy(buf, LOCAL_FIXED);
    let at = LOCAL_FIXED + name.length;
    writeUT(buf, at, e.mtime);
    at += UT_EXTRA;
    if (big) {
      buf.writeUInt16LE(0x0001, at);
      buf.writeUInt16LE(16, at + 2); // both sizes, zero here: the descriptor has them
    }
    return buf;
  }

  descriptor(i: number, crc: number): Buffer {
    const size = this.items[i]!.size;
    const buf = Buffer.alloc(this.descriptorLength(i));
    buf.writeUInt32LE(0x08074b50, 0);
    buf.writeUInt32LE(crc, 4);
    if (this.big(i)) {
      buf.writeBigUInt64LE(BigInt(size), 8);
      buf.writeBigUInt64LE(BigInt(size), 16);
    } else {
      buf.writeUInt32LE(size, 8);
      buf.writeUInt32LE(size, 12);
    }
    return buf;
  }

  centralRecord(i: number, crc: number): Buffer {
    const e = this.items[i]!;
    const name = this.names[i]!;
    const big = this.big(i);
    const farOffset = this.offsets[i]! >= MAX32;
    const n64 = this.central64Fields(i);
    const buf = Buffer.alloc(this.centralLength(i));
    const { date, time } = dosDateTime(e.mtime);
    buf.writeUInt32LE(0x02014b50, 0);
    buf.writeUInt16LE(VERSION_MADE_BY, 4);
    buf.writeUInt16LE(n64 > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
    buf.writeUInt16LE(FLAG_UTF8 | (e.dir ? 0 : FLAG_DESCRIPTOR), 8);
    buf.writeUInt16LE(0, 10);
    buf.writeUInt16LE(time, 12);
    buf.writeUInt16LE(date, 14);
    buf.writeUInt32LE(crc, 16);
    const size = this.dataLength(i);
    buf.writeUInt32LE(big ? MAX32 : size, 20);
    buf.writeUInt32LE(big ? MAX32 : size, 24);
    buf.writeUInt16LE(name.length, 28);
    buf.writeUInt16LE(buf.length - CENTRAL_FIXED - name.length, 30);
    // comment length, disk number, internal attributes: 0
    const type = e.dir ? 0o040000 : 0o100000;
    // Unix mode in the high half; MS-DOS "directory" bit for readers that only look at the low byte.
    buf.writeUInt32LE((((type | (e.mode & 0o7777)) << 16) | (e.dir ? 0x10 : 0)) >>> 0, 38);
    buf.writeUInt32LE(farOffset ? MAX32 : this.offsets[i]!, 42);
    name.copy(buf, CENTRAL_FIXED);
    let at = CENTRAL_FIXED + name.length;
    writeUT(buf, at, e.mtime);
    at += UT_EXTRA;
    if (n64 > 0) {
      buf.writeUInt16LE(0x0001, at);
      buf.writeUInt16LE(8 * n64, at + 2);
      at += 4;
      if (big) {
        buf.writeBigUInt64LE(BigInt(size), at);
        buf.writeBigUInt64LE(BigInt(size), at + 8);
        at += 16;
      }
      if (farOffset) buf.writeBigUInt64LE(BigInt(this.offsets[i]!), at);
    }
    return buf;
  }

  /** The ZIP64 end record and locator when needed, then the classic end record. */
  end(): Buffer {
    const buf = Buffer.alloc(this.endLength());
    const count = this.items.length;
    let at = 0;
    const zip64 = this.needsEnd64();
    if (zip64) {
      buf.writeUInt32LE(0x06064b50, 0);
      buf.writeBigUInt64LE(44n, 4); // size of the rest of this record
      buf.writeUInt16LE(VERSION_MADE_BY, 12);
      buf.writeUInt16LE(VERSION_ZIP64, 14);
      // disk numbers (16, 20): 0
      buf.writeBigUInt64LE(BigInt(count), 24);
      buf.writeBigUInt64LE(BigInt(count), 32);
      buf.writeBigUInt64LE(BigInt(this.cdSize), 40);
      buf.writeBigUInt64LE(BigInt(this.cdOffset), 48);
      buf.writeUInt32LE(0x07064b50, 56);
      buf.writeBigUInt64LE(BigInt(this.cdOffset + this.cdSize), 64);
      buf.writeUInt32LE(1, 72); // total number of disks
      at = END64;
    }
    buf.writeUInt32LE(0x06054b50, at);
    buf.writeUInt16LE(Math.min(count, MAX16), at + 8);
    buf.writeUInt16LE(Math.min(count, MAX16), at + 10);
    buf.writeUInt32LE(Math.min(this.cdSize, MAX32), at + 12);
    buf.writeUInt32LE(Math.min(this.cdOffset, MAX32), at + 16);
    return buf;
  }
}
