/**
 * The few tar records the model copy streams to efile's `PUT /linux/tar/{token}` (the Linux-command upload that
 * extracts a tar): ustar headers, a pax `path` record for names over 100 bytes, GNU base-256 sizes over 8 GiB (model
 * weights reach that), data padded to 512-byte blocks, two zero blocks at the end. Writing, not reading, so the
 * portal needs no tar library; efile's reader (`apps/efile/src/fs/tar-extract.ts`) reads all three.
 */

const BLOCK = 512;
const OCTAL_SIZE_MAX = 0o77777777777; // 11 octal digits

function writeString(b: Buffer, s: string, at: number, len: number) {
  b.write(s, at, len, 'utf8');
}
function writeOctal(b: Buffer, n: number, at: number, len: number) {
  writeString(b, n.toString(8).padStart(len - 1, '0') + '\0', at, len);
}
function writeSize(b: Buffer, n: number, at: number) {
  if (n <= OCTAL_SIZE_MAX) return writeOctal(b, n, at, 12);
  b[at] = 0x80;
  for (let i = at + 11, v = n; i > at; i--, v = Math.floor(v / 256)) b[i] = v % 256;
}

function header(name: string, size: number, type: '0' | '5' | 'x', mtimeS: number): Buffer {
  const b = Buffer.alloc(BLOCK);
  writeString(b, name, 0, 100);
  writeOctal(b, type === '5' ? 0o755 : 0o644, 100, 8);
  writeOctal(b, 0, 108, 8);
  writeOctal(b, 0, 116, 8);
  writeSize(b, size, 124);
  writeOctal(b, mtimeS, 136, 12);
  b.fill(0x20, 148, 156); // checksum counted as spaces
  writeString(b, type, 156, 1);
  writeString(b, 'ustar\0', 257, 6);
  writeString(b, '00', 263, 2);
  let sum = 0;
  for (const byte of b) sum += byte;
  writeString(b, sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return b;
}

/** A pax record `"<len> path=<value>\n"`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body);
  while (String(len).length + Buffer.byteLength(body) !== len)
    len = String(len).length + Buffer.byteLength(body);
  return Buffer.from(`${len}${body}`, 'utf8');
}

const pad = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The header blocks of one entry (pax record first when the name does not fit ustar's 100 bytes). */
export function entryHeader(name: string, size: number, type: 'file' | 'dir', mtimeMs: number): Buffer {
  const tarName = type === 'dir' ? `${name.replace(/\/$/, '')}/` : name;
  const mtimeS = Math.floor(mtimeMs / 1000);
  const own = header(
    Buffer.byteLength(tarName) <= 100 ? tarName : tarName.slice(0, 50),
    type === 'dir' ? 0 : size,
    type === 'dir' ? '5' : '0',
    mtimeS,
  );
  if (Buffer.byteLength(tarName) <= 100) return own;
  const record = paxRecord('path', tarName);
  return Buffer.concat([header('PaxHeader', record.length, 'x', mtimeS), record, pad(record.length), own]);
}

/** The padding after `size` bytes of file data. */
export const dataPadding = pad;

/** The end of the archive. */
export const END_OF_ARCHIVE = Buffer.alloc(2 * BLOCK);
