import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import { FORM, form, makeHarness, type Harness } from '../efile.test-fixture';
import { postChunk } from '../features/upload/chunk-client.test-fixture';
import { partialCore } from '../features/partial';
import { uploadService } from '../features/upload/upload.service';
import type { WorkerUserFs } from './worker-client';
import {
  buildWorkerBundle,
  createUsers,
  idOf,
  isRoot,
  makeHome,
  openPathTo,
  removeUsers,
} from '../../../../test-support/unix-users';

if (!isRoot)
  console.warn(
    'SKIPPED unix-mode share/Linux/sweep tests: they create real users and need root (CI runs as root)',
  );

const USERS = ['tuxs1', 'tuxs2'];

/**
 * Shares, Linux commands and the sweep of abandoned uploads in unix mode (issue 10 §1): each runs as a real user
 * through that user's worker. The front end here is root, so a read that root could do but the user cannot is the
 * proof that the worker, not the front end, touched the file.
 */
describe.skipIf(!isRoot)('unix mode: shares, Linux commands and the upload sweep', () => {
  let h: Harness;
  let base: string;
  let token: string;
  const home = '/public/home/tuxs1';
  const fsx = () => h.deps.userfs as WorkerUserFs;
  const owned = (p: string) => fs.statSync(h.host(p)).uid === idOf('tuxs1');

  beforeAll(async () => {
    await buildWorkerBundle();
    createUsers(USERS);
    h = await makeHarness({ env: { EFILE_USER_MODE: 'unix', EFILE_WORKER_IDLE_S: '60' } });
    openPathTo(path.dirname(h.fsRoot));
    makeHome(h.host(home), 'tuxs1');
    makeHome(h.host('/public/home/tuxs2'), 'tuxs2');
    h.rights.set('u-s1', { cun: 'tuxs1', home, paths: [], st: 'Normal', exp_acct: null });
    token = await h.token({ sub: 'u-s1', cun: 'tuxs1', home, paths: [] });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    removeUsers(USERS);
  });

  const get = (url: string, t: string | null = token) =>
    fetch(base + url, { headers: t ? { token: t } : {} });

  it('a share is opened, listed and downloaded as its owner; what the owner cannot read is refused', async () => {
    const dir = h.host(`${home}/共享`);
    fs.mkdirSync(dir + '/sub', { recursive: true });
    fs.writeFileSync(dir + '/sub/r.txt', 'result of tuxs1');
    // root's own file inside the owner's folder, unreadable to the owner: root (this front end) could read it.
    fs.writeFileSync(dir + '/root-only.txt', 'root');
    fs.chmodSync(dir + '/root-only.txt', 0o600);
    execFileSync('chown', ['-R', 'tuxs1:tuxs1', dir + '/sub', dir]);
    fs.chownSync(dir + '/root-only.txt', 0, 0);

    const opened = (await (
      await get(`/share/open.action?path=${encodeURIComponent(`${home}/共享`)}&validDays=3&password=abcd`)
    ).json()) as { code: string; data: { shareId: string; isDir: boolean } };
    expect(opened).toMatchObject({ code: '0', data: { isDir: true } });
    const v = (await (
      await fetch(`${base}/share/public/verify.action`, {
        method: 'POST',
        headers: FORM,
        body: form({ shareId: opened.data.shareId, password: 'abcd' }),
      })
    ).json()) as { code: string; data: { shareToken: string } };
    expect(v.code).toBe('0');
    const st = v.data.shareToken;
    const list = (await (await get(`/share/public/list.action?shareToken=${st}`, null)).json()) as {
      code: string;
      data: { list: { name: string; owner: string }[] };
    };
    expect(list.code).toBe('0');
    expect(list.data.list.map((e) => e.name).sort()).toEqual(['root-only.txt', 'sub']);
    expect(list.data.list.find((e) => e.name === 'sub')!.owner).toBe('tuxs1');
    const file = await get(`/share/public/download.action?shareToken=${st}&path=/sub/r.txt`, null);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('result of tuxs1');
    // The owner's worker ran it.
    expect(fsx().running().has('tuxs1')).toBe(true);
    const refused = (await (
      await get(`/share/public/download.action?shareToken=${st}&path=/root-only.txt`, null)
    ).json()) as { code: string };
    expect(refused.code).toBe('1030');
  });

  it('a Linux command uploads a file and a tar as the user, and downloads them back', async () => {
    fs.mkdirSync(h.host(`${home}/in`));
    fs.chownSync(h.host(`${home}/in`), idOf('tuxs1'), idOf('tuxs1'));
    const up = (await (await get(`/linuxUpload.action?path=${home}/in`)).json()) as {
      code: string;
      data: { token: string };
    };
    expect(up.code).toBe('0');
    const data = crypto.randomBytes(3 * 1024 * 1024 + 5);
    const linux = { [LINUX_TOKEN_HEADER]: up.data.token };
    const put = await fetch(`${base}/linux/put/数据.bin`, { method: 'PUT', body: data, headers: linux });
    expect(((await put.json()) as { code: string }).code).toBe('0');
    expect(fs.readFileSync(h.host(`${home}/in/数据.bin`)).equals(data)).toBe(true);
    expect(owned(`${home}/in/数据.bin`)).toBe(true);

    const local = path.join(h.dir, 'local');
    fs.mkdirSync(local + '/proj/deep', { recursive: true });
    fs.writeFileSync(local + '/proj/a.txt', 'alpha');
    fs.writeFileSync(local + '/proj/deep/b.bin', crypto.randomBytes(200_000));
    const tar = execFileSync('tar', ['-cf', '-', '-C', local, 'proj']);
    const tr = await fetch(`${base}/linux/tar`, { method: 'PUT', body: tar, headers: linux });
    expect(await tr.json()).toMatchObject({ code: '0', data: { files: 2, dirs: 2 } });
    for (const p of ['proj', 'proj/a.txt', 'proj/deep', 'proj/deep/b.bin'])
      expect(owned(`${home}/in/${p}`), p).toBe(true);
    expect(fs.readdirSync(h.host(`${home}/in`)).filter((n) => n.includes('efile-part'))).toEqual([]);

    const down = (await (
      await fetch(`${base}/fastrans/linuxDownload.action`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify({ paths: [`${home}/in/proj`, `${home}/in/数据.bin`] }),
      })
    ).json()) as { code: string; data: { token: string } };
    expect(down.code).toBe('0');
    const got = await fetch(`${base}/linux/get`, { headers: { [LINUX_TOKEN_HEADER]: down.data.token } });
    const zip = Buffer.from(await got.arrayBuffer());
    const out = path.join(h.dir, 'got.zip');
    fs.writeFileSync(out, zip);
    const names = execFileSync('unzip', ['-Z1', out]).toString().trim().split('\n').sort();
    expect(names).toEqual(['proj/', 'proj/a.txt', 'proj/deep/', 'proj/deep/b.bin', '数据.bin']);
    expect(execFileSync('unzip', ['-p', out, 'proj/a.txt']).toString()).toBe('alpha');
  });

  it('the sweep removes an abandoned partial as its owner', async () => {
    const t = {
      base,
      token,
      path: home,
      relativePath: 'abandoned.bin',
      data: crypto.randomBytes(3 * 64 * 1024),
      chunkSize: 64 * 1024,
    };
    expect((await postChunk(t, 2)).status).toBe(200);
    const partials = () => fs.readdirSync(h.host(home)).filter((n) => n.endsWith('.efile-part'));
    expect(partials()).toHaveLength(1);
    expect(owned(`${home}/${partials()[0]}`)).toBe(true);
    const svc = uploadService(h.deps, partialCore(h.deps));
    expect(await svc.sweep(Date.now())).toBe(0);
    expect(partials()).toHaveLength(1);
    expect(await svc.sweep(Date.now() + 25 * 3600_000)).toBeGreaterThan(0);
    expect(partials()).toEqual([]);
  });
});
