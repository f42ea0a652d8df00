import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { FASTRANS_PORTS, FastransTaskState as S } from '@hpc/contracts';
import type { AppServer } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
import { buildAllInOne } from '../../all-in-one/src/all-in-one';
import { dataOf, loggedIn, type Browser } from '../../portal/src/features/identity/identity.test-fixture';
import { startClient } from './app';
import { holdProxy } from './testing/hold-proxy';
import { loadConfig } from './config';
import type { EngineLimits } from './engine/task';
import { DEFAULT_LIMITS } from './engine/task';
import { Remote } from './transfer/remote';

const LIMITS: EngineLimits = {
  ...DEFAULT_LIMITS,
  rangeSize: 256 * 1024,
  smallFile: 64 * 1024,
  batchFiles: 100,
};
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const sha256Hex = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A page: a WebSocket to the client with an Origin, answers by id, events collected. */
class Page {
  private seq = 0;
  private readonly waiting = new Map<number, (a: { code: string; data: unknown; msg: string }) => void>();
  readonly events: { event: string; data: { task_id: string; state: number } }[] = [];
  private listeners: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const m = JSON.parse((raw as Buffer).toString('utf8')) as { id?: number; event?: string };
      if (m.event) {
        this.events.push(m as never);
        for (const l of this.listeners) l();
      } else this.waiting.get(m.id!)?.(m as never);
    });
  }
  static open(port: number, origin: string, host?: string): Promise<Page> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, { origin, headers: host ? { host } : {} });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Page(ws)));
      ws.once('error', reject);
    });
  }
  send<T = unknown>(action: string, params: Record<string, unknown> = {}) {
    const id = ++this.seq;
    return new Promise<{ code: string; data: T; msg: string }>((resolve) => {
      this.waiting.set(id, resolve as never);
      this.ws.send(JSON.stringify({ id, action, ...params }));
    });
  }
  /** Resolves when a task event says the task reached `state`. */
  until(taskId: string, state: number) {
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.events.some((e) => e.data.task_id === taskId && e.data.state === state)) resolve();
      };
      this.listeners.push(check);
      check();
    });
  }
  close() {
    this.ws.close();
  }
}

describe('fast-transfer client against the portal and efile', () => {
  let app: AppServer;
  let tmp: ReturnType<typeof makeTempDir>;
  let base: string;
  let uk: string;
  let demo: Browser;
  const home = () => path.join(tmp.dir, 'clusters/11250/public/home/demo');
  const client = (dir = 'cfg') =>
    startClient({
      config: {
        portal: base,
        allowedOrigins: [base],
        ports: [0],
        configDir: path.join(tmp.dir, dir),
        label: 'test',
      },
      limits: LIMITS,
      log: () => undefined,
    });

  beforeAll(async () => {
    tmp = makeTempDir('fastrans-client-');
    ({ app } = await buildAllInOne({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent', REQUEST_TIME_CHECK: 'false' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    demo = await loggedIn(app, 'demo');
    // The demo home is created on the first efile call.
    const login = await demo.post('/model-zoo/proxy/efile/fastrans/login', {
      form: `directory=${encodeURIComponent('/public/home/demo')}&clusterId=11250`,
    });
    uk = dataOf<{ token: string }>(login).token;
    await app.inject({ method: 'GET', url: '/efile/11250/initInfo.action', headers: { token: uk } });
  });
  afterAll(async () => {
    app.server.closeAllConnections();
    await app.close();
    tmp.cleanup();
  });

  it('scans the spec ports in order by default', () => {
    expect(loadConfig({ HOME: tmp.dir }, '/nowhere').ports).toEqual([...FASTRANS_PORTS]);
    expect(loadConfig({ HOME: tmp.dir, FASTRANS_PORTS: '0' }, '/nowhere').ports).toEqual([0]);
    // The machine's name in the portal: the host name unless the user names it.
    expect(loadConfig({ HOME: tmp.dir }, '/nowhere').label).toBe(os.hostname().slice(0, 64));
    expect(loadConfig({ HOME: tmp.dir, FASTRANS_LABEL: ' lab-pc ' }, '/nowhere').label).toBe('lab-pc');
  });

  it('refuses other origins and rebound hosts before any action; answers check with the sign', async () => {
    const c = await client('cfg-refuse');
    try {
      await expect(Page.open(c.port, 'https://evil.example')).rejects.toThrow(/403/);
      await expect(Page.open(c.port, base, `evil.example:${c.port}`)).rejects.toThrow(/403/);
      const page = await Page.open(c.port, base);
      const check = await page.send('check', { sign: 'abc123' });
      expect(check).toMatchObject({ code: '0', data: { sign: 'abc123', protocolVersion: 1 } });
      // Each refusal of the client's own in both languages: the page shows the one of its language.
      expect(await page.send('upload', { path: '/x', local: '/etc/passwd' })).toMatchObject({
        code: '30003',
        msg: 'Log in first',
        zh: '请先登录',
      });
      expect(await page.send('nope')).toMatchObject({
        code: '2001',
        msg: 'Unknown action nope',
        zh: '未知操作 nope',
      });
      // Checked against contracts' table before the action runs, the first field at fault named.
      expect(await page.send('get_task_info', { control: 'pause' })).toMatchObject({
        code: '2001',
        msg: 'task_id is required',
        zh: '缺少 task_id',
      });
      page.close();
    } finally {
      await c.close();
    }
  });

  it("proves the user's key from its package in the answer to check, which the portal verifies; kept 0600 for later starts", async () => {
    // The package as demo downloads it (a part of no entries: the route appends fastrans.json with demo's key).
    const part = path.join(tmp.dir, 'empty.tar.gz.part');
    fs.writeFileSync(part, zlib.gzipSync(Buffer.alloc(0)));
    const before = process.env.FASTRANS_PACKAGE;
    process.env.FASTRANS_PACKAGE = part;
    let shipped: string;
    try {
      const tar = zlib.gunzipSync((await demo.get('/share/fasttrans-client.tar.gz')).rawPayload);
      const size = parseInt(tar.subarray(124, 136).toString('ascii').trim(), 8);
      shipped = tar.subarray(512, 512 + size).toString('utf8');
    } finally {
      if (before === undefined) delete process.env.FASTRANS_PACKAGE;
      else process.env.FASTRANS_PACKAGE = before;
    }
    const key = (JSON.parse(shipped) as { clientKey: string }).clientKey;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const exe = path.join(tmp.dir, 'pkg-keyed');
    fs.mkdirSync(exe);
    fs.writeFileSync(path.join(exe, 'fastrans.json'), shipped, { mode: 0o600 });
    const cfg = path.join(tmp.dir, 'cfg-keyed');
    const env = { HOME: tmp.dir, FASTRANS_CONFIG_DIR: cfg };
    expect(loadConfig(env, exe)).toMatchObject({ clientKey: key, portal: base });
    expect(loadConfig(env, exe).clientKeyExposed).toBeUndefined();
    // Copied into the client's own folder, its owner's only: a later start without the package's file keeps it.
    expect(fs.readFileSync(path.join(cfg, 'client-key'), 'utf8').trim()).toBe(key);
    expect(fs.statSync(path.join(cfg, 'client-key')).mode & 0o777).toBe(0o600);
    fs.rmSync(path.join(exe, 'fastrans.json'));
    expect(loadConfig(env, exe).clientKey).toBe(key);
    // A package file other accounts can read is named, for the warning at start.
    fs.writeFileSync(path.join(exe, 'fastrans.json'), shipped, { mode: 0o644 });
    fs.chmodSync(path.join(exe, 'fastrans.json'), 0o644);
    expect(loadConfig(env, exe).clientKeyExposed).toBe(path.join(exe, 'fastrans.json'));

    const c = await startClient({
      config: {
        portal: base,
        allowedOrigins: [base],
        ports: [0],
        configDir: cfg,
        label: 'test',
        clientKey: key,
      },
      limits: LIMITS,
      log: () => undefined,
    });
    const keyless = await client('cfg-keyless');
    try {
      const page = await Page.open(c.port, base);
      const sign = crypto.randomBytes(16).toString('base64url');
      const check = await page.send('check', { sign });
      const proof = crypto
        .createHmac('sha256', Buffer.from(key, 'base64url'))
        .update(sign)
        .digest('base64url');
      expect(check).toMatchObject({ code: '0', data: { sign, protocolVersion: 1, proof } });
      const verify = (p: unknown) =>
        demo.post('/model-zoo/proxy/efile/fastrans/verifyClient', { json: { sign, proof: p } });
      expect((await verify((check.data as { proof: string }).proof)).json()).toMatchObject({
        data: { ok: true },
      });
      page.close();
      // A client without a key answers without a proof, which the page does not accept.
      const other = await Page.open(keyless.port, base);
      const bare = await other.send('check', { sign });
      expect(bare).toMatchObject({ code: '0', data: { sign } });
      expect((bare.data as { proof?: string }).proof).toBeUndefined();
      other.close();
    } finally {
      await c.close();
      await keyless.close();
    }
  });

  it('uploads a folder of small files and a large one, downloads it back, every SHA-256 equal', async () => {
    const c = await client();
    const page = await Page.open(c.port, base);
    try {
      const login = await page.send<{ clusterUserName: string; servers: string[] }>('login', { token: uk });
      expect(login).toMatchObject({ code: '0', data: { clusterUserName: 'demo' } });
      const src = path.join(tmp.dir, 'local/proj');
      fs.mkdirSync(path.join(src, 'sub'), { recursive: true });
      for (let i = 0; i < 300; i++)
        fs.writeFileSync(path.join(src, i % 2 ? 'sub' : '', `f${i}.txt`), `small ${i}`);
      fs.writeFileSync(path.join(src, 'big.bin'), crypto.randomBytes(3 * 1024 * 1024 + 17));
      fs.writeFileSync(path.join(src, 'empty.txt'), '');
      const listed = await page.send<{ list: { name: string }[] }>('list', { path: src });
      expect(listed.data.list.map((e) => e.name)).toContain('big.bin');
      const up = await page.send<{ tasks: { task_id: string }[] }>('upload', {
        type: 1,
        path: '/public/home/demo',
        local: [src],
      });
      expect(up.code).toBe('0');
      const id = up.data.tasks[0]!.task_id;
      await page.until(id, S.successful);
      const remote = path.join(home(), 'proj');
      for (const rel of ['big.bin', 'empty.txt', 'f0.txt', 'sub/f1.txt', 'sub/f299.txt'])
        expect(sha(path.join(remote, rel)), rel).toBe(sha(path.join(src, rel)));
      expect(fs.readdirSync(remote).filter((n) => n.endsWith('.efile-part'))).toEqual([]);
      const info = await page.send<{ count: number; files: number }>('get_task_info', { task_id: id });
      expect(info.data).toMatchObject({ files: 302, count: 302, state: S.successful });

      const into = path.join(tmp.dir, 'back');
      const down = await page.send<{ task: { task_id: string } }>('download', {
        src: ['/public/home/demo/proj'],
        path: into,
      });
      expect(down.code).toBe('0');
      await page.until(down.data.task.task_id, S.successful);
      for (const rel of ['big.bin', 'empty.txt', 'f0.txt', 'sub/f1.txt', 'sub/f299.txt'])
        expect(sha(path.join(into, 'proj', rel)), rel).toBe(sha(path.join(src, rel)));
      expect((await page.send<{ total: number }>('get_trans_count')).data.total).toBe(2);
    } finally {
      page.close();
      await c.close();
    }
  });

  it('uploads a folder again where it went (a re-run): files there with the same bytes count as done, others stay refused', async () => {
    const c = await client('cfg-again');
    const page = await Page.open(c.port, base);
    try {
      expect((await page.send('login', { token: uk })).code).toBe('0');
      const src = path.join(tmp.dir, 'local/again');
      fs.mkdirSync(src, { recursive: true });
      for (let i = 0; i < 120; i++) fs.writeFileSync(path.join(src, `f${i}.txt`), `small ${i}`);
      fs.writeFileSync(path.join(src, 'big.bin'), crypto.randomBytes(LIMITS.rangeSize * 3 + 5));
      fs.writeFileSync(path.join(src, 'big2.bin'), crypto.randomBytes(LIMITS.rangeSize * 2));
      const upload = async () => {
        const up = await page.send<{ tasks: { task_id: string }[] }>('upload', {
          type: 1,
          path: '/public/home/demo',
          local: [src],
        });
        const id = up.data.tasks[0]!.task_id;
        await Promise.race([page.until(id, S.successful), page.until(id, S.failed)]);
        return (
          await page.send<{ state: number; count: number; failed: number }>('get_task_info', { task_id: id })
        ).data;
      };
      expect(await upload()).toMatchObject({ state: S.successful, count: 122 });
      // On the cluster meanwhile: a small file and a large one changed in place, their sizes kept.
      const remote = path.join(home(), 'again');
      fs.writeFileSync(path.join(remote, 'f7.txt'), 'SMALL 7');
      const big2 = fs.readFileSync(path.join(remote, 'big2.bin'));
      big2[100] = big2[100]! ^ 1;
      fs.writeFileSync(path.join(remote, 'big2.bin'), big2);
      // Run again without overwrite: the 120 files already there count as done, the two that differ fail as taken.
      // Of the small files only the changed one is sent: the server said which it has byte for byte.
      const batches = vi.spyOn(Remote.prototype, 'batch');
      try {
        expect(await upload()).toMatchObject({ state: S.failed, count: 120, failed: 2 });
        const sent = batches.mock.calls.map(([, tar]) => tar);
        expect(sent).toHaveLength(1);
        expect(sent[0]!.includes('again/f7.txt')).toBe(true);
        expect(sent[0]!.includes('again/f8.txt')).toBe(false);
        expect(sent[0]!.length).toBeLessThan(8 * 1024);
      } finally {
        batches.mockRestore();
      }
      expect(fs.readFileSync(path.join(remote, 'f7.txt'), 'utf8')).toBe('SMALL 7');
      expect(sha(path.join(remote, 'big2.bin'))).toBe(sha256Hex(big2));
      expect(sha(path.join(remote, 'big.bin'))).toBe(sha(path.join(src, 'big.bin')));
      expect(fs.readdirSync(remote).filter((n) => n.startsWith('.'))).toEqual([]);
    } finally {
      page.close();
      await c.close();
    }
  });

  it('downloads a folder again where it went: only what is not here with the same bytes is fetched', async () => {
    const c = await client('cfg-again-down');
    const page = await Page.open(c.port, base);
    try {
      expect((await page.send('login', { token: uk })).code).toBe('0');
      const remote = path.join(home(), 'results');
      fs.mkdirSync(remote, { recursive: true });
      for (let i = 0; i < 150; i++) fs.writeFileSync(path.join(remote, `r${i}.txt`), `result ${i}`);
      const into = path.join(tmp.dir, 'fetched');
      const download = async () => {
        const down = await page.send<{ task: { task_id: string } }>('download', {
          src: ['/public/home/demo/results'],
          path: into,
        });
        const id = down.data.task.task_id;
        await Promise.race([page.until(id, S.successful), page.until(id, S.failed)]);
        return (
          await page.send<{ state: number; count: number; failed: number }>('get_task_info', { task_id: id })
        ).data;
      };
      // A first fetch has nothing here to compare: efile is not asked.
      const asks = vi.spyOn(Remote.prototype, 'same');
      try {
        expect(await download()).toMatchObject({ state: S.successful, count: 150 });
        expect(asks).not.toHaveBeenCalled();
      } finally {
        asks.mockRestore();
      }
      // Here meanwhile: one file changed in place (its size kept), one removed; on the cluster one new result.
      fs.writeFileSync(path.join(into, 'results/r7.txt'), 'RESULT 7');
      fs.rmSync(path.join(into, 'results/r8.txt'));
      fs.writeFileSync(path.join(remote, 'r150.txt'), 'result 150');
      const batches = vi.spyOn(Remote.prototype, 'readBatch');
      try {
        // The changed file stays as it is (never replaced without overwrite); the removed and the new are fetched.
        expect(await download()).toMatchObject({ state: S.failed, count: 150, failed: 1 });
        const asked = batches.mock.calls.flatMap(([paths]) => paths).sort();
        expect(asked).toEqual(['r150.txt', 'r7.txt', 'r8.txt'].map((n) => `/public/home/demo/results/${n}`));
      } finally {
        batches.mockRestore();
      }
      expect(fs.readFileSync(path.join(into, 'results/r7.txt'), 'utf8')).toBe('RESULT 7');
      expect(fs.readFileSync(path.join(into, 'results/r8.txt'), 'utf8')).toBe('result 8');
      expect(fs.readFileSync(path.join(into, 'results/r150.txt'), 'utf8')).toBe('result 150');
    } finally {
      page.close();
      await c.close();
    }
  });

  it('stays with its owner: a login as another portal user is refused, the owner stays logged in (issue 24 §3.1)', async () => {
    const c = await client('cfg-owner');
    const page = await Page.open(c.port, base);
    try {
      expect((await page.send('login', { token: uk })).code).toBe('0');
      // Another portal user's day token (its payload names another `sub`): refused before the portal is asked.
      const [h, p, sig] = uk.split('.') as [string, string, string];
      const other = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
      const intruder = [
        h,
        Buffer.from(JSON.stringify({ ...other, sub: '424242' })).toString('base64url'),
        sig,
      ].join('.');
      const refused = await page.send('login', { token: intruder });
      expect(refused).toMatchObject({ code: '2016', data: { reason: 'fastransOtherOwner' } });
      expect(c.session.info?.clusterUserName).toBe('demo');
      // Also once the owner logged out, and after a restart (the pairing is kept in the config folder).
      expect((await page.send('logout')).code).toBe('0');
      expect((await page.send('login', { token: intruder })).code).toBe('2016');
      expect(fs.existsSync(path.join(tmp.dir, 'cfg-owner/owner.json'))).toBe(true);
      // Ten logins at once, the owner's and strangers': only the owner's pass.
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => page.send('login', { token: i % 2 ? intruder : uk })),
      );
      expect(burst.map((a) => a.code)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 ? '2016' : '0')));
      expect(c.session.info?.clusterUserName).toBe('demo');
    } finally {
      page.close();
      await c.close();
    }
  });

  it('never downloads through a link: not into a linked folder, nor into a linked sub-folder (issue 24 §3.3)', async () => {
    const c = await client('cfg-links');
    const page = await Page.open(c.port, base);
    try {
      expect((await page.send('login', { token: uk })).code).toBe('0');
      fs.mkdirSync(path.join(home(), 'linkproj/inner'), { recursive: true });
      fs.writeFileSync(path.join(home(), 'linkproj/inner/authorized_keys'), 'ssh-ed25519 AAAA intruder\n');
      const secret = path.join(tmp.dir, 'u/.ssh');
      fs.mkdirSync(secret, { recursive: true });
      fs.mkdirSync(path.join(tmp.dir, 'u/Downloads'), { recursive: true });
      fs.symlinkSync(secret, path.join(tmp.dir, 'u/Downloads/x'));
      // ~/Downloads/x → ~/.ssh: the real folder is hidden, refused as a hidden folder would be.
      const intoLink = await page.send('download', {
        src: ['/public/home/demo/linkproj'],
        path: path.join(tmp.dir, 'u/Downloads/x'),
      });
      expect(intoLink.code).toBe('2016');
      // A folder of the download's own tree that is a link locally: the task is refused, nothing written there.
      const elsewhere = path.join(tmp.dir, 'u/elsewhere');
      fs.mkdirSync(elsewhere);
      fs.mkdirSync(path.join(tmp.dir, 'u/Downloads/y'));
      fs.symlinkSync(elsewhere, path.join(tmp.dir, 'u/Downloads/y/linkproj'));
      const subLink = await page.send('download', {
        src: ['/public/home/demo/linkproj'],
        path: path.join(tmp.dir, 'u/Downloads/y'),
      });
      expect(subLink.code).not.toBe('0');
      expect(subLink.msg).toMatch(/link/);
      expect(fs.readdirSync(secret)).toEqual([]);
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      // A real folder is fine.
      const fine = await page.send<{ task: { task_id: string } }>('download', {
        src: ['/public/home/demo/linkproj'],
        path: path.join(tmp.dir, 'u/Downloads/z'),
      });
      expect(fine.code).toBe('0');
      await page.until(fine.data.task.task_id, S.successful);
      expect(fs.existsSync(path.join(tmp.dir, 'u/Downloads/z/linkproj/inner/authorized_keys'))).toBe(true);
    } finally {
      page.close();
      await c.close();
    }
  });

  it('checks every downloaded range against its digest as it arrives: a flipped bit is fetched again, no whole-file pass', async () => {
    const proxy = await holdProxy(base, Infinity);
    proxy.release();
    const via = proxy.origin;
    const c = await startClient({
      config: {
        portal: via,
        allowedOrigins: [via],
        ports: [0],
        configDir: path.join(tmp.dir, 'cfg-digest'),
        label: 'test',
      },
      limits: LIMITS,
      log: () => undefined,
    });
    const page = await Page.open(c.port, via);
    try {
      expect((await page.send('login', { token: uk })).code).toBe('0');
      const remote = path.join(home(), 'digest.bin');
      const bytes = crypto.randomBytes(6 * LIMITS.rangeSize + 123);
      fs.writeFileSync(remote, bytes);
      proxy.corrupt(2);
      const into = path.join(tmp.dir, 'digest-down');
      const down = await page.send<{ task: { task_id: string } }>('download', {
        src: ['/public/home/demo/digest.bin'],
        path: into,
      });
      expect(down.code).toBe('0');
      await page.until(down.data.task.task_id, S.successful);
      expect(sha(path.join(into, 'digest.bin'))).toBe(sha256Hex(bytes));
      // Seven ranges, two of them fetched again after their bytes did not match the server's digest; and no
      // SHA-256 of the whole file on either side after the last byte.
      expect(proxy.counts.read).toBe(7 + 2);
      expect(proxy.counts.sha256).toBe(0);
    } finally {
      page.close();
      await c.close();
      await proxy.close();
    }
  });

  it('resumes an upload after the client stops mid-way, asking the server once what it has', async () => {
    // A proxy in front of the portal holds every range after the fifth: the client is stopped with exactly five
    // ranges stored, whatever the machine's speed.
    const proxy = await holdProxy(base, 5);
    const { counts } = proxy;
    const via = proxy.origin;
    const start = () =>
      startClient({
        config: {
          portal: via,
          allowedOrigins: [via],
          ports: [0],
          configDir: path.join(tmp.dir, 'cfg-resume'),
          label: 'test',
        },
        limits: LIMITS,
        log: () => undefined,
      });
    const src = path.join(tmp.dir, 'local/huge.bin');
    fs.mkdirSync(path.dirname(src), { recursive: true });
    fs.writeFileSync(src, crypto.randomBytes(32 * LIMITS.rangeSize));
    let c = await start();
    let page = await Page.open(c.port, via);
    try {
      expect((await page.send('login', { token: uk })).code).toBe('0');
      const up = await page.send<{ tasks: { task_id: string }[] }>('upload', {
        type: 0,
        path: '/public/home/demo',
        local: [src],
      });
      const id = up.data.tasks[0]!.task_id;
      // The five let through stored (answered: under load the fifth may still be writing when the held ones have
      // arrived, and a client stopped then leaves it unstored), and the streams' next ranges held at the proxy.
      while (counts.range <= 5 + LIMITS.streamsPerFile - 1 || counts.rangeDone < 5)
        await new Promise((r) => setTimeout(r, 20));
      page.close();
      await c.close(); // the client is gone; its history stays
      expect(fs.existsSync(path.join(home(), 'huge.bin'))).toBe(false);
      proxy.release();

      c = await start(); // logs in again from its config folder, resumes the task from its history
      page = await Page.open(c.port, via);
      const list = await page.send<{ list: { task_id: string }[] }>('open_trans_list');
      expect(list.data.list.map((t) => t.task_id)).toContain(id);
      // The task may have finished before this page connected: ask rather than wait for an event.
      for (;;) {
        const info = await page.send<{ state: number }>('get_task_info', { task_id: id });
        expect(info.data.state).not.toBe(S.failed);
        if (info.data.state === S.successful) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(sha(path.join(home(), 'huge.bin'))).toBe(sha(src));
      // One status call, and only the 27 ranges the server did not have were sent again.
      expect(counts).toMatchObject({ status: 1, range: 27 });
    } finally {
      page.close();
      await c.close();
      await proxy.close();
    }
  });

  it('rides out a killed server: proxy closed (13), then resumes with one status call when it is back', async () => {
    const proxy = await holdProxy(base, 5);
    const c = await startClient({
      config: {
        portal: proxy.origin,
        allowedOrigins: [proxy.origin],
        ports: [0],
        configDir: path.join(tmp.dir, 'cfg-kill'),
        label: 'test',
      },
      limits: LIMITS,
      log: () => undefined,
    });
    const page = await Page.open(c.port, proxy.origin);
    try {
      const src = path.join(tmp.dir, 'local/outage.bin');
      fs.writeFileSync(src, crypto.randomBytes(24 * LIMITS.rangeSize));
      expect((await page.send('login', { token: uk })).code).toBe('0');
      const up = await page.send<{ tasks: { task_id: string }[] }>('upload', {
        type: 0,
        path: '/public/home/demo',
        local: [src],
      });
      const id = up.data.tasks[0]!.task_id;
      while (proxy.counts.rangeDone < 5) await new Promise((r) => setTimeout(r, 20));
      proxy.down();
      await page.until(id, S.proxyClosed);
      expect(fs.existsSync(path.join(home(), 'outage.bin'))).toBe(false);
      proxy.up();
      await page.until(id, S.successful);
      expect(sha(path.join(home(), 'outage.bin'))).toBe(sha(src));
      expect(proxy.counts.status).toBe(1);
      // Only what the server did not have went again.
      expect(proxy.counts.range).toBe(24 - 5);
    } finally {
      page.close();
      await c.close();
      await proxy.close();
    }
  });
});

describe('download targets a page may choose', () => {
  it('refuses the home itself, the root and hidden folders', async () => {
    const { downloadTarget } = await import('./protocol');
    expect(() => downloadTarget('/home/u', '/home/u')).toThrow(/home/);
    expect(() => downloadTarget('/', '/home/u')).toThrow();
    expect(() => downloadTarget('/home/u/.config/autostart', '/home/u')).toThrow(/hidden/);
    expect(() => downloadTarget('/home/u/Downloads', '/home/u')).not.toThrow();
  });
});
