/**
 * A minimal tar writer (ustar, with a pax `path` record for names over 100 bytes), as a generator of buffers so that
 * `Readable.from` gives the stream backpressure: a slow client never makes the server hold a batch in memory.
 */

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, type: '0' | '5' | 'x', mtime: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 100, 'utf8');
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(Math.floor(mtime / 1000), 12), 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write('ustar\u000000', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

const pad = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len)
    len = String(len).length + Buffer.byteLength(body);
  return Buffer.from(`${len}${body}`);
}

/** The header (and pax header when needed) of one entry; its data and `pad(size)` follow. */
export function entryHeader(name: string, size: number, dir = false, mtime = Date.now()): Buffer {
  const short = Buffer.byteLength(name) <= 100;
  const main = header(short ? name : 'pax-long-name', size, dir ? '5' : '0', mtime);
  if (short) return main;
  const rec = paxRecord('path', name);
  return Buffer.concat([header('PaxHeader', rec.length, 'x', mtime), rec, pad(rec.length), main]);
}

export const entryPadding = pad;
/** Two zero blocks end an archive. */
export const END_OF_ARCHIVE = Buffer.alloc(1024);
