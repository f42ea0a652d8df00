import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import { makeHarness, type Harness } from '../../efile.test-fixture';

/** A ustar header block, written by hand so the test does not share code with the reader under test. */
function header(name: string, size: number, type: string): Buffer {
  const b = Buffer.alloc(512);
  const put = (s: string, at: number, len: number) => b.write(s.slice(0, len), at, len, 'utf8');
  const oct = (n: number, at: number, len: number) =>
    put(n.toString(8).padStart(len - 1, '0') + '\0', at, len);
  put(name, 0, 100);
  oct(0o644, 100, 8);
  oct(0, 108, 8);
  oct(0, 116, 8);
  oct(size, 124, 12);
  oct(Math.floor(Date.now() / 1000), 136, 12);
  put('        ', 148, 8);
  put(type, 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const x of b) sum += x;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return b;
}
const pad = (data: Buffer) => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
/** A pax extended header ("x") carrying the given records. */
function pax(records: Record<string, string>): Buffer {
  let body = '';
  for (const [k, v] of Object.entries(records)) {
    const rec = ` ${k}=${v}\n`;
    const bytes = Buffer.byteLength(rec); // the length counts bytes, its own digits included
    let len = bytes + 1;
    while (String(len).length + bytes !== len) len++;
    body += `${len}${rec}`;
  }
  const data = Buffer.from(body);
  return Buffer.concat([header('PaxHeader', data.length, 'x'), pad(data)]);
}

/** Everything under a folder (names and contents), to show an upload changed nothing. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        out.push(`${p}/`);
        walk(p);
      } else out.push(`${p}:${fs.readFileSync(p).toString('hex').slice(0, 64)}`);
    }
  };
  walk(dir);
  return out.sort();
}

describe('Linux tar upload on tar-stream (issue 14 §5 "Tar", issue 10 §2.7)', () => {
  let h: Harness;
  let token: string;
  let up: string;
  const put = (body: Buffer, overwrite = false) =>
    h.app.inject({
      method: 'PUT',
      url: `/linux/tar${overwrite ? '?overwrite=true' : ''}`,
      headers: { 'content-type': 'application/octet-stream', [LINUX_TOKEN_HEADER]: up },
      payload: body,
    });

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    fs.mkdirSync(h.home + '/in', { recursive: true });
    fs.writeFileSync(h.home + '/in/keep.txt', 'old');
    const r = await h.app.inject({
      method: 'GET',
      url: '/linuxUpload.action?path=/public/home/demo/in',
      headers: { token },
    });
    up = r.json<{ data: { token: string } }>().data.token;
  });
  afterAll(() => h.close());

  it('reads a pax size record (what tar writes for entries over 8 GiB) instead of the header size field', async () => {
    const data = Buffer.from('sized by the pax record, not by the header field');
    const tar = Buffer.concat([
      pax({ size: String(data.length), path: 'pax-dir/长名字.txt' }),
      header('short-name', 0, '0'), // ustar size 0: only the pax record says how long the data is
      pad(data),
      Buffer.alloc(1024),
    ]);
    const res = await put(tar);
    expect(res.json()).toMatchObject({ code: '0', data: { files: 1, bytes: data.length } });
    expect(fs.readFileSync(h.home + '/in/pax-dir/长名字.txt', 'utf8')).toBe(data.toString());
  });

  it('answers a truncated or random body with 1010 and changes nothing', async () => {
    const src = path.join(h.dir, 'src');
    fs.mkdirSync(src + '/tree/deep', { recursive: true });
    fs.writeFileSync(src + '/tree/a.txt', 'first file, complete in the body');
    fs.writeFileSync(src + '/tree/deep/b.bin', crypto.randomBytes(300_000));
    fs.writeFileSync(src + '/tree/keep.txt', 'new');
    const whole = execFileSync('tar', [
      '-cf',
      '-',
      '-C',
      src,
      'tree/a.txt',
      'tree/keep.txt',
      'tree/deep/b.bin',
    ]);
    const before = snapshot(h.home);
    // Cut inside the last (big) file (the first two files were complete in the body), inside a header, and exactly
    // after the first entry (a shorter archive but for its missing end-of-archive blocks).
    for (const cut of [whole.length - 200_000, 700, 513, 1024]) {
      const res = await put(whole.subarray(0, cut), true);
      expect([res.statusCode, res.json<{ code: string }>().code], `cut at ${cut}`).toEqual([400, '1010']);
      expect(snapshot(h.home)).toEqual(before);
    }
    for (const body of [crypto.randomBytes(100_000), Buffer.from('not a tar at all\n'.repeat(100))]) {
      const res = await put(body);
      expect(res.json<{ code: string }>().code).toBe('1010');
      expect(snapshot(h.home)).toEqual(before);
    }
    // The whole archive goes in.
    const ok = await put(whole, true);
    expect(ok.json()).toMatchObject({ code: '0', data: { files: 3 } });
    expect(fs.readFileSync(h.home + '/in/tree/keep.txt', 'utf8')).toBe('new');
  });
});
