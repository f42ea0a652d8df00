import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

/** Descriptors of this process open on paths matching `match`, after up to a second for closes to land. */
async function openAfterSettling(match: (path: string) => boolean): Promise<number> {
  const count = () =>
    fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return match(fs.readlinkSync(`/proc/self/fd/${fd}`));
      } catch {
        return false;
      }
    }).length;
  for (let i = 0; i < 50 && count() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return count();
}

describe('downloads', () => {
  let h: Harness;
  let token: string;
  const file = '/public/home/demo/报告 final.txt';
  const content = Buffer.from('0123456789'.repeat(100));

  beforeAll(async () => {
    h = await makeHarness({ env: { EFILE_FOLDER_FILE_LIMIT: '20' } });
    token = await h.token();
    fs.writeFileSync(h.host(file), content);
    fs.mkdirSync(h.home + '/数据/sub', { recursive: true });
    for (let i = 0; i < 5; i++)
      fs.writeFileSync(`${h.home}/数据/sub/文件${i}.bin`, Buffer.alloc(1000 + i, i));
    fs.writeFileSync(h.home + '/数据/.x.abc.efile-part', 'partial never zipped');
    fs.symlinkSync('/etc/passwd', h.home + '/数据/escape');
    fs.mkdirSync(h.home + '/many');
    for (let i = 0; i < 21; i++) fs.writeFileSync(`${h.home}/many/${i}`, '');
  });
  afterAll(() => h.close());

  it('streams one file with length, RFC 6266 name and ranges', async () => {
    const url = `/download.action?path=${encodeURIComponent(file)}&token=${token}`;
    const r = await h.app.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-length']).toBe('1000');
    expect(r.headers['content-disposition']).toBe(
      `attachment; filename="__ final.txt"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20final.txt`,
    );
    expect(r.rawPayload.equals(content)).toBe(true);
    const part = await h.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    expect(part.body).toBe('0123456789');
    const tail = await h.app.inject({ method: 'GET', url, headers: { range: 'bytes=-5' } });
    expect(tail.body).toBe('56789');
    const bad = await h.app.inject({ method: 'GET', url, headers: { range: 'bytes=2000-' } });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */1000');
    const other = await h.app.inject({
      method: 'GET',
      url: `/download.action?path=/public/home/other/x&token=${token}`,
    });
    expect(other.json().code).toBe('1030');
  });

  it('zips a folder with exact Content-Length, UTF-8 names, no partials and no escaping links', async () => {
    const r = await h.app.inject({
      method: 'GET',
      url: `/download.action?path=${encodeURIComponent('/public/home/demo/数据')}&token=${token}`,
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
    const zipFile = path.join(h.dir, 'out.zip');
    fs.writeFileSync(zipFile, r.rawPayload);
    const listing = execFileSync('unzip', ['-Z1', zipFile], {
      env: { ...process.env, LANG: 'C.UTF-8' },
    }).toString();
    expect(listing.split('\n').filter(Boolean).sort()).toEqual(
      ['数据/', '数据/sub/', ...[0, 1, 2, 3, 4].map((i) => `数据/sub/文件${i}.bin`)].sort(),
    );
    execFileSync('unzip', ['-tq', zipFile]);
    const one = execFileSync('unzip', ['-p', zipFile, '数据/sub/文件3.bin']);
    expect(one.equals(Buffer.alloc(1003, 3))).toBe(true);
    const head = await h.app.inject({
      method: 'HEAD',
      url: `/download.action?path=${encodeURIComponent('/public/home/demo/数据')}&token=${token}`,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(r.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('refuses folders over the file limit with 1508 and hands out single-user download keys', async () => {
    const many = await h.app.inject({
      method: 'GET',
      url: `/download.action?path=/public/home/demo/many&token=${token}`,
    });
    expect(many.json().code).toBe('1508');
    const long = Array.from({ length: 40 }, () => file);
    const short = await h.app.inject({
      method: 'POST',
      url: '/downloadCheck.action',
      headers: { token, ...FORM },
      payload: form({ paths: [file] }),
    });
    expect(short.json().data).toEqual({ downKey: null, fileCount: 1, totalSize: 1000 });
    const check = await h.app.inject({
      method: 'POST',
      url: '/downloadCheck.action',
      headers: { token, ...FORM },
      payload: form({ paths: [...long.slice(0, 10), '/public/home/demo/数据'], urlLimit: 200 }),
    });
    const { downKey } = check.json().data;
    expect(downKey).toMatch(/^[\w-]{24}$/);
    const z = await h.app.inject({
      method: 'GET',
      url: `/multiDownload.action?downKey=${downKey}&token=${token}`,
    });
    expect(z.statusCode).toBe(200);
    expect(Number(z.headers['content-length'])).toBe(z.rawPayload.length);
    const stranger = await h.token({ sub: 'someone-else' });
    const refused = await h.app.inject({
      method: 'GET',
      url: `/multiDownload.action?downKey=${downKey}&token=${stranger}`,
    });
    expect(refused.json().code).toBe('1010');
    const over = await h.app.inject({
      method: 'POST',
      url: '/downloadCheck.action',
      headers: { token, ...FORM },
      payload: form({ paths: ['/public/home/demo/many'] }),
    });
    expect(over.json().code).toBe('1508');
  });

  it('an interrupted zip leaves no open file and nothing on disk', async () => {
    fs.mkdirSync(h.home + '/large');
    for (let i = 0; i < 4; i++)
      fs.writeFileSync(`${h.home}/large/${i}.bin`, Buffer.alloc(8 * 1024 * 1024, i));
    const before = fs.readdirSync(h.home + '/large');
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as { port: number }).port;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(
        `http://127.0.0.1:${port}/download.action?path=/public/home/demo/large&token=${token}`,
        (res) => {
          let got = 0;
          res.on('data', (c: Buffer) => {
            got += c.length;
            if (got > 1024 * 1024) {
              req.destroy();
              resolve();
            }
          });
        },
      );
      req.on('error', reject);
    });
    expect(await openAfterSettling((p) => p.startsWith(h.home + '/large'))).toBe(0);
    expect(fs.readdirSync(h.home + '/large')).toEqual(before);
  });

  it('streams a large file over a socket from reused blocks; HEAD has no body; an abort frees the file', async () => {
    const big = crypto.randomBytes(5 * 1024 * 1024 + 123);
    fs.writeFileSync(h.home + '/big.bin', big);
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}/download.action?path=/public/home/demo/big.bin&token=${token}`;
    // Two downloads at once share the block pool: each must still get exactly its own bytes.
    const [a, b] = await Promise.all([fetch(url), fetch(url, { headers: { range: 'bytes=1048570-' } })]);
    expect(Buffer.from(await a.arrayBuffer()).equals(big)).toBe(true);
    expect(Buffer.from(await b.arrayBuffer()).equals(big.subarray(1048570))).toBe(true);
    expect(a.headers.get('cache-control')).toBe('private, no-store');
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([
      200,
      String(big.length),
      0,
    ]);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', reject);
    });
    expect(await openAfterSettling((p) => p === h.home + '/big.bin')).toBe(0);
  });

  it('zips and downloads running at once over sockets share the block pool; each gets exactly its bytes', async () => {
    fs.mkdirSync(h.home + '/mix');
    const files = Array.from({ length: 18 }, (_, i) => crypto.randomBytes(((i * 7919) % 13) * 90_001 + i));
    files.forEach((b, i) => fs.writeFileSync(`${h.home}/mix/f${i}.bin`, b));
    const single = crypto.randomBytes(3 * 1024 * 1024 + 5);
    fs.writeFileSync(h.home + '/single.bin', single);
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}/download.action?token=${token}`;
    const zipUrl = `${base}&path=/public/home/demo/mix`;
    const answers = await Promise.all(
      [zipUrl, `${base}&path=/public/home/demo/single.bin`, zipUrl].map(async (u) =>
        Buffer.from(await (await fetch(u)).arrayBuffer()),
      ),
    );
    expect(answers[1]!.equals(single)).toBe(true);
    for (const [n, zip] of [answers[0]!, answers[2]!].entries()) {
      const zipFile = path.join(h.dir, `mix-${n}.zip`);
      fs.writeFileSync(zipFile, zip);
      const out = path.join(h.dir, `mix-${n}`);
      execFileSync('unzip', ['-q', zipFile, '-d', out]);
      files.forEach((b, i) => expect(fs.readFileSync(`${out}/mix/f${i}.bin`).equals(b)).toBe(true));
    }
  });
});
