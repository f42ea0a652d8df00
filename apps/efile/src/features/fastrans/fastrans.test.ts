import crypto from 'node:crypto';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FastransRefusal, sha256OfContentDigest } from '@hpc/contracts';
import { testDbTargets } from '@hpc/server-kit/testing';
import { injectAs, makeHarness, type Harness } from '../../efile.test-fixture';
import { readTar } from '../../fs/tar-extract';
import tar from 'tar-stream';
import { MANIFEST_NAME, MAX_MISSING_NAMED, missingRanges } from './fastrans.service';

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const HOME = '/public/home/demo';
const RANGE = 64 * 1024;

/** A whole archive (tar-stream pushes entries given as buffers at once, so it reads back synchronously). */
function tarOf(entries: { name: string; data?: Buffer; dir?: boolean }[]): Buffer {
  const pack = tar.pack();
  for (const e of entries)
    pack.entry({ name: e.name, type: e.dir ? 'directory' : 'file' }, e.data ?? Buffer.alloc(0));
  pack.finalize();
  const parts: Buffer[] = [];
  for (let c = pack.read() as Buffer | null; c !== null; c = pack.read() as Buffer | null) parts.push(c);
  return Buffer.concat(parts);
}

// A real compute user (efile reads /etc/passwd, cached for a minute: created before any lookup), removed at the end.
const RO_USER = `fstr${process.pid % 100000}`;
beforeAll(() => {
  execFileSync('useradd', ['-M', '-N', RO_USER]);
});
afterAll(() => {
  execFileSync('userdel', [RO_USER]);
});

describe.each(testDbTargets())('fast-transfer calls ($name)', (db) => {
  let h: Harness;
  let h2: Harness;
  let token: string;
  let token2: string;
  const call = (hx: Harness, tok: string, method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown) =>
    injectAs(hx, tok, method, url, payload);

  let dropDb: () => Promise<void>;
  beforeAll(async () => {
    // Two instances over the same folder, database and KV store: any instance serves any request.
    const shared = db.create();
    dropDb = shared.cleanup;
    const same = { name: db.name, create: () => ({ ...shared, cleanup: async () => undefined }) };
    h = await makeHarness({ db: same });
    h2 = await makeHarness({ db: same, dir: h.dir, kv: h.deps.kv });
    token = await h.token();
    token2 = await h2.token();
  });
  afterAll(async () => {
    await h2.close(true);
    await h.close();
    await dropDb();
  });

  it('writes ranges at their offsets from two instances, resumes from one status call, verifies before the name', async () => {
    const data = crypto.randomBytes(5 * RANGE + 123);
    const file = { path: `${HOME}/big/data.bin`, size: data.length, identifier: 'v1' };
    const begin = await call(h, token, 'POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE });
    expect(begin.json()).toMatchObject({ code: '0', data: { files: [{ done: false, ranges: [] }] } });
    const id = begin.json().data.files[0].id as string;
    // Preallocated, hidden, not under the final name.
    const names = fs.readdirSync(h.host(`${HOME}/big`));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\.data\.bin\..*\.efile-part$/);
    expect(fs.statSync(h.host(`${HOME}/big/${names[0]}`)).size).toBe(data.length);
    const part = (n: number) => data.subarray(n * RANGE, Math.min(data.length, (n + 1) * RANGE));
    const rs = await Promise.all(
      [4, 1, 5].map((n, i) =>
        call(
          i % 2 ? h2 : h,
          i % 2 ? token2 : token,
          'PUT',
          `/fastrans/range.action?id=${id}&n=${n}`,
          part(n),
        ),
      ),
    );
    expect(rs.map((r) => r.json<{ code: string }>().code)).toEqual(['0', '0', '0']);
    // A short range is refused and not recorded.
    const short = await call(h, token, 'PUT', `/fastrans/range.action?id=${id}&n=0`, part(0).subarray(1));
    expect(short.json().code).toBe('1012');
    // The restarted client asks once: ranges 1, 4, 5 are there.
    const st = await call(h2, token2, 'POST', '/fastrans/status.action', { files: [file] });
    expect(st.json().data.files[0]).toMatchObject({ id, done: false, ranges: [1, 4, 5], rangeSize: RANGE });
    const early = await call(h, token, 'POST', '/fastrans/finalize.action', { id, sha256: sha(data) });
    expect(early.json().code).toBe('1003');
    for (const n of [0, 2, 3])
      expect(
        (await call(h, token, 'PUT', `/fastrans/range.action?id=${id}&n=${n}`, part(n))).json().code,
      ).toBe('0');
    // A wrong checksum: nothing under the final name, and every range is to be sent again.
    const bad = await call(h2, token2, 'POST', '/fastrans/finalize.action', {
      id,
      sha256: sha(Buffer.from('x')),
    });
    expect(bad.json()).toMatchObject({ code: '1010', data: { mismatch: true } });
    expect(fs.existsSync(h.host(`${HOME}/big/data.bin`))).toBe(false);
    expect(
      (await call(h, token, 'POST', '/fastrans/status.action', { files: [file] })).json().data.files[0]
        .ranges,
    ).toEqual([]);
    for (const n of [0, 1, 2, 3, 4, 5])
      await call(h2, token2, 'PUT', `/fastrans/range.action?id=${id}&n=${n}`, part(n));
    const fin = await call(h, token, 'POST', '/fastrans/finalize.action', { id, sha256: sha(data) });
    expect(fin.json()).toMatchObject({
      code: '0',
      data: { path: `${HOME}/big/data.bin`, size: data.length },
    });
    expect(fs.readFileSync(h.host(`${HOME}/big/data.bin`)).equals(data)).toBe(true);
    expect(fs.readdirSync(h.host(`${HOME}/big`))).toEqual(['data.bin']);
    const done = await call(h2, token2, 'POST', '/fastrans/status.action', { files: [file] });
    expect(done.json().data.files[0]).toMatchObject({ done: true });
    // Another user cannot write into or finalize this upload.
    const other = await h.token({ sub: 'u-other', cun: 'other', home: '/public/home/other' });
    expect((await call(h, other, 'PUT', `/fastrans/range.action?id=${id}&n=0`, part(0))).json().code).toBe(
      '1020',
    );
  });

  it('checks each range as it is written and finalizes on the hash list of the verified ranges', async () => {
    const data = crypto.randomBytes(4 * RANGE + 77);
    const file = { path: `${HOME}/big/list.bin`, size: data.length, identifier: 'v1' };
    const begin = await call(h, token, 'POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE });
    expect(begin.json().data.files[0]).toMatchObject({ done: false, rangeChecks: true });
    const id = begin.json().data.files[0].id as string;
    const part = (n: number) => data.subarray(n * RANGE, Math.min(data.length, (n + 1) * RANGE));
    const put = (n: number, body: Buffer, digest: string, hx = h, tok = token) =>
      call(hx, tok, 'PUT', `/fastrans/range.action?id=${id}&n=${n}&sha256=${digest}`, body);
    const ranges = async () =>
      (await call(h2, token2, 'POST', '/fastrans/status.action', { files: [file] })).json().data.files[0]
        .ranges as number[];
    const hashList = crypto
      .createHash('sha256')
      .update(Buffer.concat([0, 1, 2, 3, 4].map((n) => crypto.createHash('sha256').update(part(n)).digest())))
      .digest('hex');
    const finalize = (hx = h, tok = token) =>
      call(hx, tok, 'POST', '/fastrans/finalize.action', { id, rangesSha256: hashList });

    // Bytes that differ from the range's SHA-256 are refused (retryable "1010") and not recorded.
    const corrupt = Buffer.from(part(0));
    corrupt[5] = corrupt[5]! ^ 1;
    expect((await put(0, corrupt, sha(part(0)))).json()).toMatchObject({ code: '1010', data: { range: 0 } });
    expect(await ranges()).toEqual([]);
    const ok = await Promise.all(
      [0, 1, 2, 3, 4].map((n) => put(n, part(n), sha(part(n)), n % 2 ? h2 : h, n % 2 ? token2 : token)),
    );
    expect(ok.map((r) => r.json<{ code: string }>().code)).toEqual(['0', '0', '0', '0', '0']);
    // Sent again after a lost answer: already verified with these bytes.
    expect((await put(3, part(3), sha(part(3)), h2, token2)).json()).toMatchObject({ code: '0' });

    // A send naming the verified digest is not written at all, whatever its bytes.
    expect((await put(2, corrupt.subarray(0, RANGE), sha(part(2)))).json().code).toBe('0');
    // A send with another digest and bytes that differ from it: they reached the disk, so the range is no longer
    // verified, and finalize names it as missing instead of publishing the file.
    expect((await put(2, corrupt.subarray(0, RANGE), sha(Buffer.from('y')))).json().code).toBe('1010');
    expect(await ranges()).toEqual([0, 1, 3, 4]);
    expect((await finalize()).json()).toMatchObject({ code: '1003', data: { missing: [2] } });
    expect(fs.existsSync(h.host(`${HOME}/big/list.bin`))).toBe(false);

    // While another send holds the range, or while the file is being finalized, a range is not written.
    await h.deps.kv.set(`fastrans:range:${id}:2`, 'other', 60_000);
    expect((await put(2, part(2), sha(part(2)))).json().code).toBe('1001');
    await h.deps.kv.del(`fastrans:range:${id}:2`);
    await h.deps.kv.set(`fastrans:finalize:${id}`, 'other', 60_000);
    expect((await put(2, part(2), sha(part(2)))).json().code).toBe('1001');
    expect((await finalize(h2, token2)).json().code).toBe('1001');
    await h.deps.kv.del(`fastrans:finalize:${id}`);

    // Other bytes that match their own SHA-256 are verified as what they are: the client's hash list then differs
    // and every range is forgotten.
    const other = crypto.randomBytes(RANGE);
    expect((await put(2, other, sha(other))).json().code).toBe('0');
    expect((await finalize(h2, token2)).json()).toMatchObject({ code: '1010', data: { mismatch: true } });
    expect(await ranges()).toEqual([]);
    expect(fs.existsSync(h.host(`${HOME}/big/list.bin`))).toBe(false);

    for (const n of [4, 0, 2, 1, 3]) expect((await put(n, part(n), sha(part(n)))).json().code).toBe('0');
    // The verdict is the recorded digests' (the file is not read again): a byte changed on disk behind efile's
    // back after its range was verified is not seen, which is what saves the second read of a 4 GiB file.
    const partial = fs.readdirSync(h.host(`${HOME}/big`)).find((x) => x.startsWith('.list.bin.'))!;
    const fd = fs.openSync(h.host(`${HOME}/big/${partial}`), 'r+');
    fs.writeSync(fd, Buffer.from([data[9]! ^ 0xff]), 0, 1, 9);
    fs.closeSync(fd);
    expect((await finalize(h2, token2)).json()).toMatchObject({
      code: '0',
      data: { path: `${HOME}/big/list.bin`, size: data.length },
    });
    const got = fs.readFileSync(h.host(`${HOME}/big/list.bin`));
    expect(got.subarray(10).equals(data.subarray(10))).toBe(true);
    expect((await finalize()).json().code).toBe('0');
    // A finalize names a digest.
    expect((await call(h, token, 'POST', '/fastrans/finalize.action', { id })).json().code).toBe('1003');
  });

  it('refuses targets outside the home with the fast-transfer warning, and taken names', async () => {
    const r = await call(h, token, 'POST', '/fastrans/begin.action', {
      files: [
        { path: '/public/share/proj/x.bin', size: 10, identifier: 'a' },
        { path: `${HOME}/../other/x.bin`, size: 10, identifier: 'a' },
      ],
      rangeSize: RANGE,
    });
    expect(r.json<{ data: { files: { code: string }[] } }>().data.files.map((f) => f.code)).toEqual([
      '1030',
      '1033',
    ]);
    expect(r.json().data.files[0].reason).toBe(FastransRefusal.outsideHome);
    fs.writeFileSync(h.host(`${HOME}/taken.txt`), 'x');
    const taken = await call(h, token, 'POST', '/fastrans/begin.action', {
      files: [{ path: `${HOME}/taken.txt`, size: 10, identifier: 'a' }],
      rangeSize: RANGE,
    });
    expect(taken.json().data.files[0].code).toBe('1021');
    const dl = await call(h, token, 'POST', '/fastrans/manifest.action', { paths: ['/public/share/proj'] });
    expect(dl.json()).toMatchObject({ code: '1030', data: { reason: FastransRefusal.outsideHome } });
  });

  it('keeps the ranges of a file whose name was taken before finalize: begun again with overwrite, it finalizes at once', async () => {
    const data = crypto.randomBytes(2 * RANGE + 5);
    const file = { path: `${HOME}/late.bin`, size: data.length, identifier: 'v1' };
    const begin = await call(h, token, 'POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE });
    const id = begin.json().data.files[0].id as string;
    for (const n of [0, 1, 2]) {
      const part = data.subarray(n * RANGE, Math.min(data.length, (n + 1) * RANGE));
      await call(h, token, 'PUT', `/fastrans/range.action?id=${id}&n=${n}&sha256=${sha(part)}`, part);
    }
    fs.writeFileSync(h.host(`${HOME}/late.bin`), 'theirs');
    const fin = await call(h, token, 'POST', '/fastrans/finalize.action', { id, sha256: sha(data) });
    expect(fin.json().code).toBe('1021');
    expect(fs.readFileSync(h.host(`${HOME}/late.bin`), 'utf8')).toBe('theirs');
    // Without overwrite the name is still refused; with it, every range is already there.
    const again = await call(h2, token2, 'POST', '/fastrans/begin.action', {
      files: [file],
      rangeSize: RANGE,
    });
    expect(again.json().data.files[0].code).toBe('1021');
    const cover = await call(h2, token2, 'POST', '/fastrans/begin.action', {
      files: [file],
      rangeSize: RANGE,
      overwrite: true,
    });
    expect(cover.json().data.files[0]).toMatchObject({ id, done: false, ranges: [0, 1, 2] });
    const done = await call(h2, token2, 'POST', '/fastrans/finalize.action', { id, sha256: sha(data) });
    expect(done.json()).toMatchObject({ code: '0', data: { size: data.length } });
    expect(fs.readFileSync(h.host(`${HOME}/late.bin`)).equals(data)).toBe(true);
    expect(fs.readdirSync(h.host(HOME)).filter((n) => n.includes('late.bin'))).toEqual(['late.bin']);
  });

  it('stores a tar batch of small files, each checked against its SHA-256, and reports them to the status call', async () => {
    const a = Buffer.from('alpha');
    const b = crypto.randomBytes(3000);
    const manifest = {
      files: {
        'set/a.txt': { sha256: sha(a), identifier: 'ia' },
        'set/sub/b.bin': { sha256: sha(b), identifier: 'ib' },
        'set/c.txt': { sha256: sha(Buffer.from('not this')), identifier: 'ic' },
      },
    };
    const tar = tarOf([
      { name: MANIFEST_NAME, data: Buffer.from(JSON.stringify(manifest)) },
      { name: 'set/', dir: true },
      { name: 'set/a.txt', data: a },
      { name: 'set/sub/b.bin', data: b },
      { name: 'set/c.txt', data: Buffer.from('tampered') },
    ]);
    const r = await call(h, token, 'PUT', `/fastrans/batch.action?path=${encodeURIComponent(HOME)}`, tar);
    expect(r.json()).toMatchObject({
      code: '0',
      data: { failed: [{ path: 'set/c.txt', code: '1010' }] },
    });
    expect(r.json<{ data: { stored: string[] } }>().data.stored.sort()).toEqual([
      'set/a.txt',
      'set/sub/b.bin',
    ]);
    expect(fs.readFileSync(h.host(`${HOME}/set/sub/b.bin`)).equals(b)).toBe(true);
    expect(fs.readdirSync(h.host(`${HOME}/set`)).sort()).toEqual(['a.txt', 'sub']);
    const st = await call(h, token, 'POST', '/fastrans/status.action', {
      files: [
        { path: `${HOME}/set/a.txt`, size: a.length, identifier: 'ia' },
        { path: `${HOME}/set/c.txt`, size: 8, identifier: 'ic' },
      ],
    });
    expect(st.json<{ data: { files: { done: boolean }[] } }>().data.files.map((f) => f.done)).toEqual([
      true,
      false,
    ]);
    // The same batch again (its first answer was lost): what it stored counts as stored, not as a name taken.
    const again = await call(h, token, 'PUT', `/fastrans/batch.action?path=${encodeURIComponent(HOME)}`, tar);
    expect(again.json<{ data: { stored: string[] } }>().data.stored.sort()).toEqual([
      'set/a.txt',
      'set/sub/b.bin',
    ]);
    // A batch that starts deep in a new tree (batches in flight at once each start somewhere): folders made.
    const z = Buffer.from('zed');
    const deep = tarOf([
      {
        name: MANIFEST_NAME,
        data: Buffer.from(
          JSON.stringify({ files: { 'new/x/y/z.txt': { sha256: sha(z), identifier: 'iz' } } }),
        ),
      },
      { name: 'new/x/y/z.txt', data: z },
    ]);
    const d = await call(h, token, 'PUT', `/fastrans/batch.action?path=${encodeURIComponent(HOME)}`, deep);
    expect(d.json()).toMatchObject({ code: '0', data: { stored: ['new/x/y/z.txt'], failed: [] } });
    expect(fs.readFileSync(h.host(`${HOME}/new/x/y/z.txt`), 'utf8')).toBe('zed');
    const outside = await call(h, token, 'PUT', `/fastrans/batch.action?path=/public/share/proj`, tar);
    expect(outside.json()).toMatchObject({ code: '1030', data: { reason: FastransRefusal.outsideHome } });
    // A batch whose body ends inside a small file (and so without the end blocks): 1010, and that file is not there.
    const k = crypto.randomBytes(2000);
    const whole = tarOf([
      {
        name: MANIFEST_NAME,
        data: Buffer.from(JSON.stringify({ files: { 'cut/k.bin': { sha256: sha(k), identifier: 'ik' } } })),
      },
      { name: 'cut/k.bin', data: k },
    ]);
    const cut = await call(
      h,
      token,
      'PUT',
      `/fastrans/batch.action?path=${encodeURIComponent(HOME)}`,
      whole.subarray(0, whole.length - 1024 - 1000),
    );
    expect(cut.json()).toMatchObject({ code: '1010' });
    expect(fs.existsSync(h.host(`${HOME}/cut/k.bin`))).toBe(false);
    // A body of no declared length (a chunked PUT) streams through tar-stream instead of being read whole: the
    // same outcome, file by file.
    const streamed = await h.app.inject({
      method: 'PUT',
      url: `/fastrans/batch.action?path=${encodeURIComponent(`${HOME}/streamed`)}`,
      headers: { token, 'content-type': 'application/octet-stream' },
      payload: Readable.from([tar.subarray(0, 700), tar.subarray(700)]),
    });
    expect(streamed.json()).toMatchObject({
      code: '0',
      data: { failed: [{ path: 'set/c.txt', code: '1010' }] },
    });
    expect(fs.readFileSync(h.host(`${HOME}/streamed/set/sub/b.bin`)).equals(b)).toBe(true);
    // A body shorter than it declared (the connection cut): 1010, nothing stored.
    const short = await h.app.inject({
      method: 'PUT',
      url: `/fastrans/batch.action?path=${encodeURIComponent(`${HOME}/short`)}`,
      headers: {
        token,
        'content-type': 'application/octet-stream',
        'content-length': String(whole.length + 512),
      },
      payload: whole,
    });
    expect(short.json()).toMatchObject({ code: '1010' });
    expect(fs.existsSync(h.host(`${HOME}/short`))).toBe(false);
  });

  it('found from outside: a huge sparse file, a bad manifest, a refused begin, all answered and nothing left', async () => {
    // A 2 TiB sparse file's finalize looked at all 33 M ranges it declared on the event loop (3 s, every request
    // of the process held); now it stops at the 10,000 it names.
    const huge = { path: `${HOME}/huge.bin`, size: 2 ** 41, identifier: 'huge' };
    const b = await call(h, token, 'POST', '/fastrans/begin.action', { files: [huge], rangeSize: RANGE });
    const id = b.json().data.files[0].id as string;
    const fin = await call(h, token, 'POST', '/fastrans/finalize.action', {
      id,
      rangesSha256: 'a'.repeat(64),
    });
    expect(fin.json()).toMatchObject({ code: '1003' });
    expect(fin.json().data.missing).toHaveLength(MAX_MISSING_NAMED);
    // The look itself: as many as it names, whatever the file declared (2^40 ranges here).
    let looks = 0;
    const have = { has: () => (looks++, false), get: () => undefined };
    expect(missingRanges(2 ** 40, have, true)).toHaveLength(MAX_MISSING_NAMED);
    expect(looks).toBe(MAX_MISSING_NAMED);
    await call(h, token, 'POST', '/fastrans/cancel.action', { ids: [id] });
    // A manifest that is not the protocol's JSON: 1004, not a 500.
    for (const text of ['null', 'not json', '{"files": 3}']) {
      const tar = tarOf([{ name: MANIFEST_NAME, data: Buffer.from(text) }]);
      const r = await call(h, token, 'PUT', `/fastrans/batch.action?path=${encodeURIComponent(HOME)}`, tar);
      expect([text, r.json().code]).toEqual([text, '1004']);
    }
    // A size past the file system's limit: refused in the request's language, and no empty partial left behind.
    const tooBig = { path: `${HOME}/toobig.bin`, size: Number.MAX_SAFE_INTEGER, identifier: 'x' };
    const refused = await h.app.inject({
      method: 'POST',
      url: '/fastrans/begin.action',
      headers: { token, 'content-type': 'application/json', 'accept-language': 'zh-CN' },
      payload: JSON.stringify({ files: [tooBig], rangeSize: RANGE }),
    });
    expect(refused.json().data.files[0]).toMatchObject({ code: '1011', msg: '文件将超过文件系统允许的大小' });
    expect(fs.readdirSync(h.host(HOME)).filter((n) => n.includes('toobig'))).toEqual([]);
  });

  it('downloads: a streamed manifest of any size, ranged reads, a verified tar batch, a SHA-256', async () => {
    const dir = h.host(`${HOME}/dl`);
    fs.mkdirSync(`${dir}/deep`, { recursive: true });
    const big = crypto.randomBytes(200_000);
    fs.writeFileSync(`${dir}/big.bin`, big);
    for (let i = 0; i < 1200; i++) fs.writeFileSync(`${dir}/deep/f${i}.txt`, `file ${i}`);
    const m = await call(h, token, 'POST', '/fastrans/manifest.action', { paths: [`${HOME}/dl`] });
    const lines = m.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { rel: string; dir: boolean; size: number });
    expect(lines.filter((l) => !l.dir)).toHaveLength(1201); // no 1,000-file limit here
    expect(lines).toContainEqual(expect.objectContaining({ rel: 'dl/big.bin', size: big.length }));
    const part = await h.app.inject({
      method: 'GET',
      url: `/fastrans/read.action?path=${encodeURIComponent(`${HOME}/dl/big.bin`)}`,
      headers: { token, range: 'bytes=1000-1999' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(big.subarray(1000, 2000))).toBe(true);
    expect(part.headers['content-digest']).toBeUndefined();
    // Asked for its digest (RFC 9530): the range's SHA-256, in base64, with the same bytes.
    const digested = await h.app.inject({
      method: 'GET',
      url: `/fastrans/read.action?path=${encodeURIComponent(`${HOME}/dl/big.bin`)}`,
      headers: { token, range: 'bytes=1000-1999', 'want-content-digest': 'sha-256' },
    });
    expect(digested.statusCode).toBe(206);
    expect(digested.headers['content-range']).toBe(`bytes 1000-1999/${big.length}`);
    expect(digested.rawPayload.equals(big.subarray(1000, 2000))).toBe(true);
    expect(digested.headers['content-digest']).toBe(
      `sha-256=:${crypto.createHash('sha256').update(big.subarray(1000, 2000)).digest('base64')}:`,
    );
    expect(sha256OfContentDigest(String(digested.headers['content-digest']))).toBe(
      sha(big.subarray(1000, 2000)),
    );
    // Ranges read at once each get their own bytes and digest (their buffers are kept and lent again: block-pool).
    const ranges = Array.from({ length: 12 }, (_, i) => [i * 16_000, i * 16_000 + 15_999 - i] as const);
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        ranges.map(([a, b]) =>
          h.app.inject({
            method: 'GET',
            url: `/fastrans/read.action?path=${encodeURIComponent(`${HOME}/dl/big.bin`)}`,
            headers: { token, range: `bytes=${a}-${b}`, 'want-content-digest': 'sha-256' },
          }),
        ),
      );
      answers.forEach((r, i) => {
        const want = big.subarray(ranges[i]![0], ranges[i]![1] + 1);
        expect(r.rawPayload.equals(want)).toBe(true);
        expect(sha256OfContentDigest(String(r.headers['content-digest']))).toBe(sha(want));
      });
    }
    // Unsatisfiable: past the end.
    const past = await h.app.inject({
      method: 'GET',
      url: `/fastrans/read.action?path=${encodeURIComponent(`${HOME}/dl/big.bin`)}`,
      headers: { token, range: `bytes=${big.length}-${big.length + 10}`, 'want-content-digest': 'sha-256' },
    });
    expect(past.statusCode).toBe(416);
    // A link named in a batch is not followed (the walk never lists one), even to a file beside it.
    fs.symlinkSync('f1.txt', `${dir}/deep/link.txt`);
    const batch = await call(h, token, 'POST', '/fastrans/readBatch.action', {
      paths: [
        `${HOME}/dl/deep/f1.txt`,
        `${HOME}/dl/deep/f2.txt`,
        `${HOME}/dl/missing.txt`,
        `${HOME}/dl/deep/link.txt`,
      ],
    });
    const got = new Map<string, Buffer>();
    await readTar(Readable.from([batch.rawPayload]), async (e, data) => {
      const parts: Buffer[] = [];
      for await (const p of data()) parts.push(p);
      got.set(e.path, Buffer.concat(parts));
    });
    const man = JSON.parse(got.get(MANIFEST_NAME)!.toString()) as {
      files: Record<string, { sha256: string }>;
      failed: Record<string, string>;
    };
    expect(got.get(`${HOME.slice(1)}/dl/deep/f2.txt`)!.toString()).toBe('file 2');
    expect(man.files[`${HOME}/dl/deep/f1.txt`]!.sha256).toBe(sha(Buffer.from('file 1')));
    expect(man.failed).toEqual({
      [`${HOME}/dl/missing.txt`]: '1020',
      [`${HOME}/dl/deep/link.txt`]: '1030',
    });
    expect(got.has(`${HOME.slice(1)}/dl/deep/link.txt`)).toBe(false);
    const s = await call(h, token, 'POST', '/fastrans/sha256.action', { path: `${HOME}/dl/big.bin` });
    expect(s.json().data).toEqual({ sha256: sha(big), size: big.length });
  });

  it('says which small files of a folder sent again are there byte for byte, and nothing about anything else', async () => {
    const dir = h.host(`${HOME}/same`);
    fs.mkdirSync(`${dir}/sub`, { recursive: true });
    const a = Buffer.from('alpha');
    const b = Buffer.from('bravo');
    fs.writeFileSync(`${dir}/a.txt`, a);
    fs.writeFileSync(`${dir}/sub/b.txt`, b);
    fs.writeFileSync(`${dir}/other.txt`, 'OTHER'); // the same size as `other`, other bytes
    fs.symlinkSync(`${dir}/a.txt`, `${dir}/link.txt`); // a link to a file with the bytes asked about
    execFileSync('mkfifo', [`${dir}/fifo`]); // must not block the call
    fs.mkdirSync(`${dir}/folder.txt`);
    const entry = (name: string, data: Buffer) => ({ name, size: data.length, sha256: sha(data) });
    const files = [
      entry('a.txt', a),
      entry('sub/b.txt', b),
      entry('other.txt', Buffer.from('other')),
      entry('link.txt', a),
      entry('fifo', a),
      entry('folder.txt', a),
      entry('missing.txt', a),
      entry('../same/a.txt', a),
      entry('sub/../a.txt', a),
      { ...entry('a.txt', a), size: a.length + 1 },
    ];
    const r = await call(h2, token2, 'POST', '/fastrans/same.action', { path: `${HOME}/same`, files });
    expect(r.json()).toEqual({ code: '0', msg: expect.any(String), data: { same: ['a.txt', 'sub/b.txt'] } });
    // Outside the home: the fast-transfer warning, as for every call of fast transfer.
    const out = await call(h, token, 'POST', '/fastrans/same.action', {
      path: '/tmp',
      files: [entry('x', a)],
    });
    expect(out.json()).toMatchObject({ code: '1030', data: { reason: FastransRefusal.outsideHome } });
    // A size beyond a batch's files, a bad digest, too many names: refused by the schema.
    for (const bad of [
      [{ ...entry('a.txt', a), size: 2 * 1024 * 1024 }],
      [{ ...entry('a.txt', a), sha256: 'x' }],
      Array.from({ length: 1001 }, (_, i) => entry(`f${i}`, a)),
    ]) {
      const refused = await call(h, token, 'POST', '/fastrans/same.action', {
        path: `${HOME}/same`,
        files: bad,
      });
      expect(refused.statusCode).toBe(400);
    }
    // Nothing was written or removed.
    expect(fs.readdirSync(dir).sort()).toEqual([
      'a.txt',
      'fifo',
      'folder.txt',
      'link.txt',
      'other.txt',
      'sub',
    ]);
  });

  it('single mode: the write check is the service account’s, even where the compute user is a real account', async () => {
    // A folder owned by the service, 0755: as RO_USER's mode bits it is read-only, but single mode writes as the
    // service, so it checks as the service too (issue 25 §2). The refusal itself is unix mode's (the kernel's):
    // transfer-unix.test.ts.
    const home = h.host(`${HOME}`);
    fs.mkdirSync(`${home}/ro`, { recursive: true });
    fs.chmodSync(`${home}/ro`, 0o755);
    const t = await h.token({ cun: RO_USER });
    const r = await call(h, t, 'POST', '/fastrans/begin.action', {
      files: [{ path: `${HOME}/ro/x.bin`, size: 10, identifier: 'a' }],
      rangeSize: RANGE,
    });
    expect(r.json().data.files[0]).toMatchObject({ done: false, ranges: [] });
    expect(r.json().data.files[0].code).toBeUndefined();
  });
});
