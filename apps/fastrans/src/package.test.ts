import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FastransTaskState as S } from '@hpc/contracts';
import type { AppServer } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
import { buildAllInOne } from '../../all-in-one/src/all-in-one';
import { dataOf, loggedIn } from '../../portal/src/features/identity/identity.test-fixture';
import { holdProxy } from './testing/hold-proxy';
import { packageOrigins } from '../../portal/src/features/fastrans/client-package';

const root = path.resolve(import.meta.dirname, '../../..');
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const singleExe = process.platform === 'linux' && process.arch === 'x64';

/** Starts the unpacked client as its README says, on a free port; resolves with the port it logged. */
function run(dir: string, home: string): Promise<{ child: ChildProcess; port: number }> {
  const [cmd, args] = singleExe
    ? [path.join(dir, 'fastrans'), []]
    : [process.execPath, [path.join(dir, 'fastrans.cjs')]];
  // Port 0: never the real 9527… of a client the machine may run (the default order is checked in client.test.ts).
  const child = spawn(cmd, args, {
    cwd: dir,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', FASTRANS_PORTS: '0' },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`client exited (${code}): ${out}`)));
  });
}

function rpc(ws: WebSocket) {
  let seq = 0;
  return <T>(action: string, params: Record<string, unknown> = {}) =>
    new Promise<{ code: string; data: T }>((resolve) => {
      const id = ++seq;
      const on = (raw: Buffer) => {
        const m = JSON.parse(raw.toString('utf8')) as { id?: number; code: string; data: T };
        if (m.id === id) {
          ws.off('message', on);
          resolve(m);
        }
      };
      ws.on('message', on);
      ws.send(JSON.stringify({ id, action, ...params }));
    });
}

const open = (port: number, origin: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, { origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

describe('the client package the portal serves', () => {
  let app: AppServer;
  let tmp: ReturnType<typeof makeTempDir>;
  let base: string;
  let proxy: Awaited<ReturnType<typeof holdProxy>>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Built by `npm run build` (scripts/build-fastrans.mjs); built here when missing or stale.
    execFileSync(
      process.execPath,
      ['-e', "import('./scripts/build-fastrans.mjs').then((m) => m.buildFastrans())"],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
    tmp = makeTempDir('fastrans-pkg-');
    // The portal is reached through a proxy that can hold the upload: its public address, as an operator would
    // set PUBLIC_URL for a portal behind a reverse proxy.
    proxy = await holdProxy(() => base, 1);
    ({ app } = await buildAllInOne({
      DATA_DIR: tmp.dir,
      LOG_LEVEL: 'silent',
      REQUEST_TIME_CHECK: 'false',
      PUBLIC_URL: proxy.origin,
    }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  }, 600_000);
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await proxy?.close();
    app.server.closeAllConnections();
    await app.close();
    tmp.cleanup();
  }, 60_000);

  it('is downloaded with the portal origin inside, unpacked and run; survives kill -9 mid-upload', async () => {
    {
      const res = await fetch(`${proxy.origin}/share/fasttrans-client.tar.gz`);
      expect(res.status).toBe(200);
      const tgz = path.join(tmp.dir, 'client.tar.gz');
      fs.writeFileSync(tgz, Buffer.from(await res.arrayBuffer()));
      const where = path.join(tmp.dir, 'unpacked');
      fs.mkdirSync(where);
      execFileSync('tar', ['xzf', tgz, '-C', where]);
      const dir = path.join(where, 'fasttrans-client');
      const names = fs.readdirSync(dir).sort();
      expect(names).toEqual(
        expect.arrayContaining([
          'README.md',
          'fastrans.cjs',
          'fastrans.json',
          'fastrans.service',
          'com.hpc.fastrans.plist',
          'fastrans.cmd',
          'install-url-handler.sh',
          'install-url-handler.cmd',
        ]),
      );
      if (singleExe) expect(names).toContain('fastrans');
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'fastrans.json'), 'utf8'))).toMatchObject({
        portal: proxy.origin,
      });
      // The Windows link handler writes only the user's own registry branch (no administrator rights).
      expect(fs.readFileSync(path.join(dir, 'install-url-handler.cmd'), 'utf8')).toMatch(
        /^reg add "HKCU\\Software\\Classes\\fastrans\\shell\\open\\command"/m,
      );
      for (const word of ['systemctl --user', 'shell:startup', 'launchctl', 'Uninstall', 'stop']) {
        expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain(word);
      }

      const home = path.join(tmp.dir, 'user');
      fs.mkdirSync(home);
      let c = await run(dir, home);
      children.push(c.child);
      // Only the portal it came from may drive it.
      await expect(open(c.port, base)).rejects.toThrow(/403/);
      let ws = await open(c.port, proxy.origin);
      let call = rpc(ws);
      expect((await call<{ protocolVersion: number }>('check', { sign: 's1' })).data).toMatchObject({
        sign: 's1',
        protocolVersion: 1,
      });
      const demo = await loggedIn(app, 'demo');
      const login = await demo.post('/model-zoo/proxy/efile/fastrans/login', {
        form: `directory=${encodeURIComponent('/public/home/demo')}&clusterId=11250`,
      });
      const uk = dataOf<{ token: string }>(login).token;
      expect((await call('login', { token: uk })).code).toBe('0');
      const src = path.join(tmp.dir, 'payload.bin');
      fs.writeFileSync(src, crypto.randomBytes(20 * 1024 * 1024 + 5)); // two 16 MiB ranges
      const up = await call<{ tasks: { task_id: string }[] }>('upload', {
        type: 0,
        path: '/public/home/demo',
        local: [src],
      });
      expect(up.code).toBe('0');
      const id = up.data.tasks[0]!.task_id;
      // Killed once the first range is stored on the server and the second is held in the proxy.
      while (proxy.counts.range < 2 || proxy.counts.rangeDone < 1)
        await new Promise((r) => setTimeout(r, 20));
      c.child.kill('SIGKILL');
      await new Promise((r) => c.child.once('exit', r));
      ws.terminate();
      const final = path.join(tmp.dir, 'clusters/11250/public/home/demo/payload.bin');
      expect(fs.existsSync(final)).toBe(false);
      proxy.release();

      c = await run(dir, home);
      children.push(c.child);
      ws = await open(c.port, proxy.origin);
      call = rpc(ws);
      for (;;) {
        const info = await call<{ state: number }>('get_task_info', { task_id: id });
        expect(info.code).toBe('0');
        expect(info.data.state).not.toBe(S.failed);
        if (info.data.state === S.successful) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(sha(final)).toBe(sha(src));
      // Resumed, not started over (the counts start again at the release): only the range the server did not have
      // went again. The restarted client learnt that from its one status call, or from begin when its history
      // (saved at most every 2 s) was written before it had begun the file: either way at most one status call.
      expect(proxy.counts.range).toBe(1);
      expect(proxy.counts.status).toBeLessThanOrEqual(1);
      // And back down with the packaged client: small files are written and large ones named by its file thread,
      // which runs from source text (file-thread.ts), so this is where that is proved for the single executable.
      const smallDir = path.join(tmp.dir, 'clusters/11250/public/home/demo/small');
      fs.mkdirSync(smallDir);
      for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(smallDir, `s${i}.txt`), `small file ${i}`);
      const into = path.join(tmp.dir, 'back');
      fs.mkdirSync(into);
      const down = await call<{ task: { task_id: string } }>('download', {
        src: ['/public/home/demo/payload.bin', '/public/home/demo/small'],
        path: into,
      });
      expect(down.code).toBe('0');
      for (;;) {
        const info = await call<{ state: number }>('get_task_info', { task_id: down.data.task.task_id });
        expect(info.data.state).not.toBe(S.failed);
        if (info.data.state === S.successful) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(sha(path.join(into, 'payload.bin'))).toBe(sha(src));
      for (let i = 0; i < 20; i++)
        expect(fs.readFileSync(path.join(into, 'small', `s${i}.txt`), 'utf8')).toBe(`small file ${i}`);
      expect(fs.readdirSync(path.join(into, 'small')).length).toBe(20);
      ws.terminate();
      c.child.kill('SIGTERM');
    }
  }, 300_000);

  it("names only the operator's origins, never one from the request (issue 24 §3.6)", async () => {
    const forged = await fetch(`${base}/share/fasttrans-client.tar.gz`, {
      headers: { host: 'evil.example:8080', 'x-forwarded-host': 'evil.example' },
    });
    expect(forged.status).toBe(200);
    const where = path.join(tmp.dir, 'forged');
    fs.mkdirSync(where);
    fs.writeFileSync(path.join(where, 'p.tar.gz'), Buffer.from(await forged.arrayBuffer()));
    execFileSync('tar', ['xzf', 'p.tar.gz', 'fasttrans-client/fastrans.json'], { cwd: where });
    const config = JSON.parse(fs.readFileSync(path.join(where, 'fasttrans-client/fastrans.json'), 'utf8'));
    expect(config).toMatchObject({ portal: proxy.origin, allowedOrigins: [proxy.origin] });
    expect(JSON.stringify(config)).not.toContain('evil');
  });
});

describe('the origins a package names without PUBLIC_URL', () => {
  it('are the bound addresses, never a header', () => {
    expect(packageOrigins('', { address: '127.0.0.1', port: 8080, family: 'IPv4' }).sort()).toEqual([
      'http://127.0.0.1:8080',
      'http://localhost:8080',
    ]);
    expect(packageOrigins('', { address: '10.1.2.3', port: 80, family: 'IPv4' })).toEqual([
      'http://10.1.2.3:80',
    ]);
    const all = packageOrigins('', { address: '0.0.0.0', port: 8080, family: 'IPv4' });
    expect(all).toEqual(expect.arrayContaining(['http://localhost:8080', 'http://127.0.0.1:8080']));
    expect(all.every((o) => /^http:\/\/[\d.a-z]+:8080$/.test(o))).toBe(true);
    expect(packageOrigins('https://hpc.example.org/portal/', null)).toEqual(['https://hpc.example.org']);
  });
});
