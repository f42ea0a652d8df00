import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FastransRefusal, sha256OfContentDigest } from '@hpc/contracts';
import { injectAs, makeHarness, type Harness } from '../../efile.test-fixture';
import { readTar } from '../../fs/tar-extract';
import { defaultUmask } from '@hpc/cluster-kit';
import type { WorkerUserFs } from '../../userfs/worker-client';
import { partialCore } from '../partial';
import { MANIFEST_NAME, fastransService } from './fastrans.service';
import {
  buildWorkerBundle,
  createUsers,
  idOf,
  isRoot,
  makeHome,
  openPathTo,
  removeUsers,
} from '../../../../../test-support/unix-users';

if (!isRoot)
  console.warn(
    'SKIPPED unix-mode fast-transfer tests: they create real users and need root (CI runs as root)',
  );

const USERS = ['tuxf1', 'tuxf2'];
const RANGE = 64 * 1024;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A whole archive (entries given as buffers are pushed at once, so it reads back synchronously). */
function tarOf(entries: { name: string; data: Buffer }[]): Buffer {
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name }, e.data);
  pack.finalize();
  const parts: Buffer[] = [];
  for (let c = pack.read() as Buffer | null; c !== null; c = pack.read() as Buffer | null) parts.push(c);
  return Buffer.concat(parts);
}

/**
 * Fast transfer in unix mode (issue 10 §1, issue 11 §2): every file operation runs in the user's worker, as the
 * user. The front end here is root, so a file owned by root, a write root could do but the user cannot, or a read
 * of a root-only file would each prove that the front end touched the user's files itself.
 */
describe.skipIf(!isRoot)('unix mode: fast transfer runs as the user', () => {
  let h: Harness;
  let token: string;
  const home = '/public/home/tuxf1';
  const other = '/public/home/tuxf2';
  const uid = () => idOf('tuxf1');
  const mode = 0o666 & ~defaultUmask();
  const call = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    injectAs(h, token, method, url, payload);
  const asUser = (p: string) => {
    const st = fs.statSync(h.host(p));
    return { uid: st.uid, mode: st.mode & 0o777 };
  };

  beforeAll(async () => {
    await buildWorkerBundle();
    createUsers(USERS);
    h = await makeHarness({ env: { EFILE_USER_MODE: 'unix', EFILE_WORKER_IDLE_S: '60' } });
    openPathTo(path.dirname(h.fsRoot));
    makeHome(h.host(home), 'tuxf1');
    makeHome(h.host(other), 'tuxf2');
    // tuxf2's home is one of tuxf1's roots: the resolver lets it through, only the kernel (0700) refuses.
    const claims = { cun: 'tuxf1', home, paths: [other] };
    h.rights.set('u-f1', { ...claims, st: 'Normal', exp_acct: null });
    token = await h.token({ sub: 'u-f1', ...claims });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    removeUsers(USERS);
  });

  it('a large file in ranges lands owned by the user, with the umask', async () => {
    const data = crypto.randomBytes(3 * RANGE + 10);
    const file = { path: `${home}/big/data.bin`, size: data.length, identifier: 'v1' };
    const begin = await call('POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE });
    expect(begin.json()).toMatchObject({ code: '0', data: { files: [{ done: false }] } });
    const id = begin.json().data.files[0].id as string;
    // The folder and the preallocated partial were made by the user.
    expect(asUser(`${home}/big`).uid).toBe(uid());
    const [partial] = fs.readdirSync(h.host(`${home}/big`));
    expect(asUser(`${home}/big/${partial}`).uid).toBe(uid());
    const part = (n: number) => data.subarray(n * RANGE, Math.min(data.length, (n + 1) * RANGE));
    for (let n = 0; n < 4; n++) {
      const r = await call('PUT', `/fastrans/range.action?id=${id}&n=${n}&sha256=${sha(part(n))}`, part(n));
      expect(r.json().code).toBe('0');
    }
    const hashList = crypto
      .createHash('sha256')
      .update(Buffer.concat([0, 1, 2, 3].map((n) => crypto.createHash('sha256').update(part(n)).digest())))
      .digest('hex');
    const fin = await call('POST', '/fastrans/finalize.action', { id, rangesSha256: hashList });
    expect(fin.json()).toMatchObject({ code: '0', data: { path: file.path, size: data.length } });
    expect(fs.readFileSync(h.host(file.path)).equals(data)).toBe(true);
    expect(asUser(file.path)).toEqual({ uid: uid(), mode });
    expect(fs.readdirSync(h.host(`${home}/big`))).toEqual(['data.bin']);
    // The user's worker ran it.
    expect((h.deps.userfs as WorkerUserFs).running().has('tuxf1')).toBe(true);
  });

  it('a small-file batch (and a file over 1 MiB in it) lands owned by the user, with the umask', async () => {
    const files = {
      'sm/a.txt': Buffer.from('alpha'),
      'sm/deep/b.txt': Buffer.from('beta'),
      'sm/c.bin': crypto.randomBytes(1024 * 1024 + 4096),
    };
    const manifest = {
      files: Object.fromEntries(
        Object.entries(files).map(([k, v]) => [k, { sha256: sha(v), identifier: k }]),
      ),
    };
    const body = tarOf([
      { name: MANIFEST_NAME, data: Buffer.from(JSON.stringify(manifest)) },
      ...Object.entries(files).map(([name, data]) => ({ name, data })),
    ]);
    const r = await call('PUT', `/fastrans/batch.action?path=${encodeURIComponent(home)}`, body);
    expect(r.json()).toMatchObject({ code: '0', data: { failed: [] } });
    expect((r.json().data.stored as string[]).sort()).toEqual(Object.keys(files).sort());
    for (const [rel, data] of Object.entries(files)) {
      expect(fs.readFileSync(h.host(`${home}/${rel}`)).equals(data), rel).toBe(true);
      expect(asUser(`${home}/${rel}`), rel).toEqual({ uid: uid(), mode });
    }
    for (const d of ['sm', 'sm/deep']) expect(asUser(`${home}/${d}`).uid, d).toBe(uid());
    expect(fs.readdirSync(h.host(`${home}/sm`)).sort()).toEqual(['a.txt', 'c.bin', 'deep']);
  });

  it("a batch's small files go to the worker together, and a refusal of one is that file's alone", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`many/f${i}.txt`, crypto.randomBytes(100 + i)]),
    );
    fs.mkdirSync(h.host(`${home}/many`));
    fs.chownSync(h.host(`${home}/many`), uid(), uid());
    fs.writeFileSync(h.host(`${home}/many/f7.txt`), 'already here');
    fs.chownSync(h.host(`${home}/many/f7.txt`), uid(), uid());
    const manifest = {
      files: Object.fromEntries(
        Object.entries(files).map(([k, v]) => [
          k,
          { sha256: k === 'many/f9.txt' ? sha(Buffer.from('other')) : sha(v), identifier: k },
        ]),
      ),
    };
    const body = tarOf([
      { name: MANIFEST_NAME, data: Buffer.from(JSON.stringify(manifest)) },
      ...Object.entries(files).map(([name, data]) => ({ name, data })),
    ]);
    const sent = (h.deps.userfs as WorkerUserFs).smallSent;
    const before = { ...sent };
    const r = await call('PUT', `/fastrans/batch.action?path=${encodeURIComponent(home)}`, body);
    expect(r.json().code).toBe('0');
    // The name taken (f7) and the checksum that differs (f9) fail alone; the other 298 are stored as the user.
    const failed = (r.json().data.failed as { path: string; code: string }[]).sort((a, b) =>
      a.path.localeCompare(b.path),
    );
    expect(failed).toEqual([
      { path: 'many/f7.txt', code: '1021' },
      { path: 'many/f9.txt', code: '1010' },
    ]);
    expect(r.json().data.stored).toHaveLength(298);
    for (const [rel, data] of Object.entries(files)) {
      if (rel === 'many/f7.txt' || rel === 'many/f9.txt') continue;
      expect(fs.readFileSync(h.host(`${home}/${rel}`)).equals(data), rel).toBe(true);
      expect(asUser(`${home}/${rel}`), rel).toEqual({ uid: uid(), mode });
    }
    expect(fs.readFileSync(h.host(`${home}/many/f7.txt`), 'utf8')).toBe('already here');
    expect(fs.existsSync(h.host(`${home}/many/f9.txt`))).toBe(false);
    // Nothing half-written left under a temporary name.
    expect(fs.readdirSync(h.host(`${home}/many`))).toHaveLength(299);
    // 300 files in fewer requests than files (64 at most each).
    expect(sent.files - before.files).toBe(300);
    expect(sent.requests - before.requests).toBeGreaterThanOrEqual(5);
    expect(sent.requests - before.requests).toBeLessThan(300);
  });

  it('refuses a folder the user cannot write with the no-permission warning', async () => {
    // Owned by root, 0755, in the user's home: the user may read it, not write it; the kernel decides.
    fs.mkdirSync(h.host(`${home}/ro`), { mode: 0o755 });
    const r = await call('POST', '/fastrans/begin.action', {
      files: [{ path: `${home}/ro/x.bin`, size: 10, identifier: 'ro' }],
      rangeSize: RANGE,
    });
    expect(r.json().data.files[0]).toMatchObject({ code: '1030', reason: FastransRefusal.noWrite });
    expect(fs.readdirSync(h.host(`${home}/ro`))).toEqual([]);
  });

  it("another user's 0700 home is refused, even through a link in the user's home", async () => {
    fs.symlinkSync(h.host(other), h.host(`${home}/link`));
    fs.lchownSync(h.host(`${home}/link`), uid(), uid());
    const begin = await call('POST', '/fastrans/begin.action', {
      files: [{ path: `${home}/link/x.bin`, size: 10, identifier: 'a' }],
      rangeSize: RANGE,
    });
    expect(begin.json().data.files[0]).toMatchObject({ code: '1030' });
    const manifest = { files: { 'y.txt': { sha256: sha(Buffer.from('y')), identifier: 'y' } } };
    const body = tarOf([
      { name: MANIFEST_NAME, data: Buffer.from(JSON.stringify(manifest)) },
      { name: 'y.txt', data: Buffer.from('y') },
    ]);
    const b = await call('PUT', `/fastrans/batch.action?path=${encodeURIComponent(`${home}/link`)}`, body);
    expect(b.json().data?.stored ?? []).toEqual([]);
    expect(b.json().data?.failed ?? [{ code: b.json().code }]).toEqual([{ path: 'y.txt', code: '1030' }]);
    expect(fs.readdirSync(h.host(other))).toEqual([]);
  });

  it('cancel and the sweep remove partials as their owner', async () => {
    const begin = await call('POST', '/fastrans/begin.action', {
      files: [
        { path: `${home}/gone/a.bin`, size: 100, identifier: 'a' },
        { path: `${home}/gone/b.bin`, size: 100, identifier: 'b' },
      ],
      rangeSize: RANGE,
    });
    const ids = (begin.json().data.files as { id: string }[]).map((f) => f.id);
    const partials = () => fs.readdirSync(h.host(`${home}/gone`)).filter((n) => n.endsWith('.efile-part'));
    expect(partials()).toHaveLength(2);
    // Both through the owner's worker: the sweep knows the owner from the row (migration 005); a row naming no user
    // would leave its partial in unix mode (the front end does not touch user files).
    expect((await call('POST', '/fastrans/cancel.action', { ids: [ids[0]] })).json().code).toBe('0');
    expect(partials()).toHaveLength(1);
    const svc = fastransService(h.deps, partialCore(h.deps));
    expect(await svc.sweep(Date.now())).toBe(0);
    expect(await svc.sweep(Date.now() + 25 * 3600_000)).toBeGreaterThan(0);
    expect(partials()).toEqual([]);
  });

  it('a download never serves what the user cannot read', async () => {
    fs.writeFileSync(h.host(`${home}/mine.txt`), 'mine');
    fs.chownSync(h.host(`${home}/mine.txt`), uid(), uid());
    // Root's own files in the user's home, unreadable to the user: root (this front end) could read them.
    fs.writeFileSync(h.host(`${home}/secret.txt`), 'root only');
    fs.chmodSync(h.host(`${home}/secret.txt`), 0o600);
    fs.mkdirSync(h.host(`${home}/rootdir`), { mode: 0o700 });
    fs.writeFileSync(h.host(`${home}/rootdir/inner-secret.txt`), 'root only');

    const batch = await call('POST', '/fastrans/readBatch.action', {
      paths: [`${home}/mine.txt`, `${home}/secret.txt`],
    });
    const got = new Map<string, Buffer>();
    await readTar(Readable.from([batch.rawPayload]), async (e, data) => {
      const parts: Buffer[] = [];
      for await (const p of data()) parts.push(p);
      got.set(e.path, Buffer.concat(parts));
    });
    const man = JSON.parse(got.get(MANIFEST_NAME)!.toString()) as { failed: Record<string, string> };
    expect(got.get(`${home.slice(1)}/mine.txt`)?.toString()).toBe('mine');
    expect(got.has(`${home.slice(1)}/secret.txt`)).toBe(false);
    expect(man.failed).toEqual({ [`${home}/secret.txt`]: '1030' });

    const sum = await call('POST', '/fastrans/sha256.action', { path: `${home}/secret.txt` });
    expect(sum.json().code).toBe('1030');
    // Whether a file is there with these bytes is read as the user too: root's secret, whose bytes the caller
    // names exactly, is not confirmed.
    const entry = (name: string, text: string) => ({
      name,
      size: text.length,
      sha256: sha(Buffer.from(text)),
    });
    const same = await call('POST', '/fastrans/same.action', {
      path: home,
      files: [
        entry('mine.txt', 'mine'),
        entry('secret.txt', 'root only'),
        entry('rootdir/inner-secret.txt', 'root only'),
      ],
    });
    expect(same.json()).toMatchObject({ code: '0', data: { same: ['mine.txt'] } });
    // The walk of a folder the user cannot open stops there (the answer is cut or an error): never its content.
    const m = await call('POST', '/fastrans/manifest.action', { paths: [`${home}/rootdir`] }).catch(
      () => null,
    );
    expect(m?.body ?? '').not.toContain('inner-secret');
    const mine = await call('POST', '/fastrans/manifest.action', { paths: [`${home}/mine.txt`] });
    expect(JSON.parse(mine.body.trim())).toMatchObject({ rel: 'mine.txt', dir: false, size: 4 });
    // A range with its digest is read by the user's worker too: the user's file, never root's.
    const read = (p: string) =>
      h.app.inject({
        method: 'GET',
        url: `/fastrans/read.action?path=${encodeURIComponent(p)}`,
        headers: { token, range: 'bytes=1-3', 'want-content-digest': 'sha-256' },
      });
    const ok = await read(`${home}/mine.txt`);
    expect(ok.statusCode).toBe(206);
    expect(ok.body).toBe('ine');
    expect(sha256OfContentDigest(String(ok.headers['content-digest']))).toBe(sha(Buffer.from('ine')));
    const refused = await read(`${home}/secret.txt`);
    expect(refused.json()).toMatchObject({ code: '1030' });
  });
});
