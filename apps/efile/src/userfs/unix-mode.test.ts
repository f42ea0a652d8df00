/* eslint-disable @typescript-eslint/no-unsafe-call -- inject().json() is untyped in route tests */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../efile.test-fixture';
import type { WorkerUserFs } from './worker-client';
import { checkAccount } from '@hpc/cluster-kit';
import {
  buildWorkerBundle,
  createUsers,
  idOf,
  isRoot,
  makeHome,
  removeGroups,
  removeUsers,
} from '../../../../test-support/unix-users';

if (!isRoot) console.warn('SKIPPED unix-mode tests: they create real users and need root (CI runs as root)');

const sh = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' }).toString();
const USERS = ['tuxa1', 'tuxb1', 'tuxsys1', 'tuxnol1'];

/**
 * Unix mode with real users (issue 10 §3): tuxa1 and tuxb1 are cluster users, tuxgrp1 a project group of tuxa1
 * (supplementary), tuxsys1 a system account, tuxnol1 a user with a refused shell.
 */
describe.skipIf(!isRoot)('unix mode: one worker per user', () => {
  let h: Harness;
  let ta: string;

  const homeA = '/public/home/tuxa1';
  const homeB = '/public/home/tuxb1';
  /** A 1001 here is unexpected except where a test kills a worker: its message goes to the log. */
  const logged = <T extends { body: string }>(r: T) => {
    if (r.body.includes('"1001"')) console.error('efile answered:', r.body);
    return r;
  };
  const get = async (url: string, t = ta) =>
    logged(await h.app.inject({ method: 'GET', url, headers: { token: t } }));
  const post = async (url: string, body: Record<string, string | number | boolean | string[]>, t = ta) =>
    logged(await h.app.inject({ method: 'POST', url, headers: { token: t, ...FORM }, payload: form(body) }));
  const userfs = () => h.deps.userfs as WorkerUserFs;
  /** The harness on a real port: hand-offs need a real TCP connection (inject has none). */
  const listening = async () => {
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  };

  const cleanup = () => {
    removeUsers(USERS);
    removeGroups(['tuxgrp1']);
  };

  beforeAll(async () => {
    await buildWorkerBundle();
    cleanup(); // left over from an interrupted run
    execFileSync('groupadd', ['-f', 'tuxgrp1']);
    createUsers(USERS, { tuxa1: ['-G', 'tuxgrp1'], tuxsys1: ['-r'], tuxnol1: ['-s', '/usr/sbin/nologin'] });
    h = await makeHarness({ env: { EFILE_USER_MODE: 'unix', EFILE_WORKER_IDLE_S: '60' } });
    // The harness root lives in a 0700 temp folder: users must be able to walk down to their homes.
    for (let d = h.fsRoot; d !== '/' && d !== path.dirname(h.dir); d = path.dirname(d))
      fs.chmodSync(d, 0o755);
    fs.chmodSync(h.dir, 0o755);
    makeHome(h.host(homeA), 'tuxa1');
    makeHome(h.host(homeB), 'tuxb1');
    fs.writeFileSync(h.host(homeB + '/secret.txt'), 'b only');
    fs.chownSync(h.host(homeB + '/secret.txt'), idOf('tuxb1'), idOf('tuxb1'));
    // A setgid project folder of tuxgrp1, writable by the group.
    const proj = h.host('/public/share/proj');
    fs.chownSync(proj, 0, Number(sh('getent', 'group', 'tuxgrp1').split(':')[2]));
    fs.chmodSync(proj, 0o2770);
    ta = await h.token({ sub: 'u-a', cun: 'tuxa1', home: homeA, paths: ['/public/share/proj'] });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    cleanup();
  });

  it('creates, uploads, copies and edits files owned by the user, with real names in the columns', async () => {
    expect((await post('/touchFile.action', { path: `${homeA}/made.txt` })).json()).toMatchObject({
      code: '0',
    });
    expect((await post('/mkdir.action', { path: `${homeA}/dir` })).json().code).toBe('0');
    expect(
      (await post('/editTextFile.action', { path: `${homeA}/made.txt`, content: 'edited' })).json().code,
    ).toBe('0');
    const st = fs.statSync(h.host(`${homeA}/made.txt`));
    expect(st.uid).toBe(idOf('tuxa1'));
    expect(fs.statSync(h.host(`${homeA}/dir`)).uid).toBe(idOf('tuxa1'));
    const list = (await get(`/list.action?path=${homeA}`)).json();
    expect(list.data.list.find((e: { name: string }) => e.name === 'made.txt')).toMatchObject({
      owner: 'tuxa1',
      group: 'tuxa1',
    });
    const r = await post('/copy.action', {
      paths: [`${homeA}/made.txt`],
      targetPath: `${homeA}/dir`,
      cover: false,
    });
    expect(r.json().code).toBe('0');
    for (let i = 0; i < 400; i++) {
      const p = (await get(`/operationProgress.action?operationId=${r.json().data.operationId}`)).json().data;
      if (p.status !== 'running') {
        expect(p.status).toBe('done');
        break;
      }
      await new Promise((res) => setTimeout(res, 25));
    }
    expect(fs.statSync(h.host(`${homeA}/dir/made.txt`)).uid).toBe(idOf('tuxa1'));
    expect(fs.readFileSync(h.host(`${homeA}/dir/made.txt`), 'utf8')).toBe('edited');
  });

  it('writes into a setgid project folder through a supplementary group; the file gets the folder group', async () => {
    expect((await post('/touchFile.action', { path: '/public/share/proj/team.txt' })).json().code).toBe('0');
    const st = fs.statSync(h.host('/public/share/proj/team.txt'));
    expect(st.uid).toBe(idOf('tuxa1'));
    expect(st.gid).toBe(Number(sh('getent', 'group', 'tuxgrp1').split(':')[2]));
    // tuxb1 is not in the group: the kernel says no, even with the folder granted in the token.
    const tb2 = await h.token({ sub: 'u-b', cun: 'tuxb1', home: homeB, paths: ['/public/share/proj'] });
    expect((await post('/touchFile.action', { path: '/public/share/proj/b.txt' }, tb2)).json().code).toBe(
      '1030',
    );
  });

  it("another user's 0700 home answers 1030, directly and through a link", async () => {
    // A token granting tuxb1's home to tuxa1 (a portal mistake): the resolver lets it through, the kernel does not.
    const wide = await h.token({ sub: 'u-a', cun: 'tuxa1', home: homeA, paths: [homeB] });
    expect((await get(`/list.action?path=${homeB}`, wide)).json().code).toBe('1030');
    expect((await get(`/download.action?path=${homeB}/secret.txt`, wide)).json().code).toBe('1030');
    expect(
      (
        await post('/checkPermission.action', { path: `${homeB}/secret.txt`, permissionAction: 'read' }, wide)
      ).json().data.allowded,
    ).toBe(false);
    fs.symlinkSync(h.host(homeB), h.host(`${homeA}/to-b`));
    expect((await get(`/list.action?path=${homeA}/to-b`, wide)).json().code).toBe('1030');
    expect(
      (await post('/previewTextFile.action', { path: `${homeA}/to-b/secret.txt` }, wide)).json().code,
    ).toBe('1030');
  });

  it("downloads and zips are written by the user's worker on the client's own connection (hand-off)", async () => {
    const data = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 7 }, (_, i) => (i * 31) % 251));
    fs.writeFileSync(h.host(`${homeA}/handed.bin`), data);
    fs.chownSync(h.host(`${homeA}/handed.bin`), idOf('tuxa1'), idOf('tuxa1'));
    const base = await listening();
    // A client that asks to keep its connections (as browsers do): only a relayed answer may keep one.
    const agent = new http.Agent({ keepAlive: true });
    const fetchRaw = (url: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${base}${url}`, { headers: { token: ta, ...headers }, agent }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }),
            );
            res.on('error', reject);
          })
          .on('error', reject);
      });
    const url = `/download.action?path=${homeA}/handed.bin`;
    // The worker wrote it: the answer ends its connection (a relayed answer keeps it alive).
    const whole = await fetchRaw(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.connection).toBe('close');
    expect(whole.headers['keep-alive']).toBeUndefined();
    expect(whole.body.equals(data)).toBe(true);
    const part = await fetchRaw(url, { range: 'bytes=1000-2999999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-2999999/${data.length}`);
    expect(part.body.equals(data.subarray(1000, 3_000_000))).toBe(true);
    const zip = await fetchRaw(`/multiDownload.action?paths=${homeA}/handed.bin&paths=${homeA}/made.txt`);
    expect(zip.headers.connection).toBe('close');
    expect(zip.body.length).toBe(Number(zip.headers['content-length']));
    expect(zip.body.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(zip.body.includes(data.subarray(0, 65536))).toBe(true);
    // Parallel downloads each get their own connection handed over, none mixed up.
    const many = await Promise.all(
      Array.from({ length: 8 }, (_, i) => fetchRaw(url, { range: `bytes=${i * 1000}-${i * 1000 + 99_999}` })),
    );
    many.forEach((r, i) => expect(r.body.equals(data.subarray(i * 1000, i * 1000 + 100_000))).toBe(true));
    // With the hand-off off, the front end relays the same bytes on a connection it keeps.
    h.deps.config.EFILE_WORKER_HANDOFF = false;
    try {
      const relayed = await fetchRaw(url);
      expect(relayed.headers.connection).not.toBe('close');
      expect(relayed.body.equals(data)).toBe(true);
    } finally {
      h.deps.config.EFILE_WORKER_HANDOFF = true;
      agent.destroy();
    }
  });

  it('a worker killed mid-request fails that request with 1001 and the next request starts a new one', async () => {
    const fsx = userfs();
    await get(`/list.action?path=${homeA}`);
    const pid = fsx.running().get('tuxa1')!;
    expect(pid).toBeGreaterThan(0);
    // Started with room in its heap (worker-client.ts WORKER_HEAP_FLAG): without it a streaming worker spends
    // more CPU collecting garbage than moving bytes.
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(
      '--initial-old-space-size=128',
    );
    // A request in flight: a big zip download the test reads slowly.
    fs.writeFileSync(h.host(`${homeA}/big.bin`), Buffer.alloc(32 * 1024 * 1024, 1));
    fs.chownSync(h.host(`${homeA}/big.bin`), idOf('tuxa1'), idOf('tuxa1'));
    const base = await listening();
    const res = await fetch(`${base}/multiDownload.action?paths=${homeA}/big.bin&paths=${homeA}/made.txt`, {
      headers: { token: ta },
    });
    const reader = res.body!.getReader();
    await reader.read();
    process.kill(pid, 'SIGKILL');
    let got = 0;
    let failed = false;
    try {
      for (;;) {
        const c = await reader.read();
        if (c.done) break;
        got += c.value.length;
      }
    } catch {
      failed = true;
    }
    expect(failed || got < 32 * 1024 * 1024).toBe(true);
    // The next request gets a new worker.
    const again = await get(`/list.action?path=${homeA}`);
    expect(again.json().code).toBe('0');
    expect(fsx.running().get('tuxa1')).not.toBe(pid);
  });

  it('the copy race of issue 10 §1: 0 leaks over 10 rounds, and the swap happened', async () => {
    const fsx = userfs();
    void fsx;
    let swapped = 0;
    let leaks = 0;
    const uidA = idOf('tuxa1');
    for (let round = 0; round < 10; round++) {
      const race = h.host(`${homeA}/race`);
      fs.rmSync(race, { recursive: true, force: true });
      fs.rmSync(h.host(`${homeA}/race-orig`), { recursive: true, force: true });
      fs.rmSync(h.host(`${homeA}/race-dst`), { recursive: true, force: true });
      fs.mkdirSync(race + '/secrets', { recursive: true });
      fs.writeFileSync(race + '/big.bin', Buffer.alloc(64 * 1024 * 1024, 7));
      fs.writeFileSync(race + '/secrets/id_rsa', 'mine');
      fs.mkdirSync(h.host(`${homeA}/race-dst`));
      execFileSync('chown', ['-R', `${uidA}:${uidA}`, race, h.host(`${homeA}/race-dst`)]);
      const r = await post('/copy.action', {
        paths: [`${homeA}/race`],
        targetPath: `${homeA}/race-dst`,
        cover: false,
      });
      expect(r.json().code).toBe('0');
      // As soon as the big file's temporary copy appears, swap the source for a link to the other home.
      const dst = h.host(`${homeA}/race-dst`);
      for (let i = 0; i < 2000; i++) {
        const tmp = fs.readdirSync(dst).find((n) => n.endsWith('.efile-tmp'));
        if (tmp && fs.existsSync(path.join(dst, tmp, 'big.bin'))) {
          fs.renameSync(race, h.host(`${homeA}/race-orig`));
          fs.symlinkSync(h.host(homeB), race);
          swapped++;
          break;
        }
        await new Promise((res) => setTimeout(res, 2));
      }
      for (let i = 0; i < 400; i++) {
        const p = (await get(`/operationProgress.action?operationId=${r.json().data.operationId}`)).json()
          .data;
        if (p.status !== 'running') break;
        await new Promise((res) => setTimeout(res, 25));
      }
      const leaked = await post('/previewTextFile.action', { path: `${homeA}/race-dst/race/secret.txt` });
      if (leaked.json().code === '0') leaks++;
      if (fs.existsSync(h.host(`${homeA}/race-dst/race/secret.txt`))) leaks++;
    }
    expect(leaks).toBe(0);
    expect(swapped).toBeGreaterThan(0);
  }, 240_000);
});

describe.skipIf(!isRoot)('unix mode: the launcher rules', () => {
  const made = ['tuxsys2', 'tuxnol2'];
  afterAll(() => removeUsers(made));
  it('refuses root, a low uid, an unknown user and a refused shell', async () => {
    createUsers(made, { tuxsys2: ['-r'], tuxnol2: ['-s', '/usr/sbin/nologin'] });
    const rules = { minUid: 1000, refusedShells: ['/usr/sbin/nologin', '/bin/false'] };
    expect(() => checkAccount('root', rules)).toThrow(expect.objectContaining({ code: '1017' }));
    expect(() => checkAccount('tuxsys2', rules)).toThrow(expect.objectContaining({ code: '1017' }));
    expect(() => checkAccount('tuxnobody9', rules)).toThrow(expect.objectContaining({ code: '601009' }));
    expect(() => checkAccount('tuxnol2', rules)).toThrow(expect.objectContaining({ code: '1017' }));
  });
});
