/**
 * A minimal tar codec for batches of small files: ustar headers with a pax `path` record for long names (what
 * efile's reader and writer speak). Batches are at most a few MiB, so they are built and parsed in memory.
 */

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, type: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 100, 'utf8');
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write('ustar\u000000', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len)
    len = String(len).length + Buffer.byteLength(body);
  return Buffer.from(`${len}${body}`);
}

export function tarPack(entries: { name: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (Buffer.byteLength(e.name) > 100) {
      const rec = paxRecord('path', e.name);
      parts.push(header('PaxHeader', rec.length, 'x'), rec, pad(rec.length));
    }
    parts.push(header(e.name, e.data.length, '0'), e.data, pad(e.data.length));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

const str = (b: Buffer, off: number, len: number) => {
  const s = b.subarray(off, off + len);
  const z = s.indexOf(0);
  return (z === -1 ? s : s.subarray(0, z)).toString('utf8');
};
const num = (b: Buffer, off: number, len: number) => parseInt(str(b, off, len).trim() || '0', 8);

/** The regular files of an archive (folders and anything else are skipped). */
export function tarUnpack(buf: Buffer): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  let off = 0;
  let longName: string | null = null;
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const size = num(h, 124, 12);
    const flag = String.fromCharCode(h[156]!);
    const data = buf.subarray(off + 512, off + 512 + size);
    if (data.length < size) throw new Error('truncated tar');
    off += 512 + Math.ceil(size / 512) * 512;
    if (flag === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      longName = m ? m[1]! : null;
      continue;
    }
    if (flag === 'L') {
      longName = str(data, 0, data.length);
      continue;
    }
    const prefix = h.subarray(257, 262).toString() === 'ustar' ? str(h, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${str(h, 0, 100)}` : str(h, 0, 100));
    longName = null;
    if (flag === '0' || flag === '\0') out.push({ name, data: Buffer.from(data) });
  }
  return out;
}
