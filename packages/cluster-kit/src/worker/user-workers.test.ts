import { PassThrough } from 'node:stream';
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import {
  createUsers,
  idOf,
  isRoot,
  openPathTo,
  removeGroups,
  removeUsers,
} from '../../../../test-support/unix-users';
import { callClient } from '../wire/call-client';
import { call, type CallTable } from '../wire/call-table';
import { LAUNCHER_ENV, type LauncherSettings } from './launcher';
import { UserWorkers } from './user-workers';
import { kitCalls, type KitScope, type KitWorker } from './kit-calls.test-fixture';

if (!isRoot)
  console.warn('SKIPPED user-worker tests: they create real users and need root (CI runs as root)');

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.resolve(here, '../../dist/kit-test-worker.js');
const USERS = ['kitw1', 'kitw2', 'kitsys1', 'kitnol1', 'kitsvc1'];
const rules = { minUid: 1000, refusedShells: ['/usr/sbin/nologin', '/bin/false'] };

// The table's kinds are checked against the interface: a call whose kind does not fit its signature is refused.
void ({
  // @ts-expect-error a Buffer answer is a download, not JSON
  bytes: call.plain(),
  // @ts-expect-error argument 0 of sum is a label, not the byte body
  sum: call.upload(0),
  // @ts-expect-error echo takes no progress callback
  echo: call.progress(),
} satisfies CallTable<KitWorker>);

/** The test entry bundled like a service's (a worker then starts without compiling anything as a new uid). */
async function buildEntry() {
  await build({
    entryPoints: [path.join(here, 'kit-worker.test-fixture.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'externalize-npm',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            a.path.startsWith('@hpc/') || path.isAbsolute(a.path)
              ? undefined
              : { path: a.path, external: true },
          );
        },
      },
    ],
  });
}

/**
 * The user-worker machinery with real users (issue 23 §1): kitw1 (supplementary group kitgrp1) and kitw2 are users,
 * kitsys1 a system account, kitnol1 has a refused shell, kitsvc1 is the service account that owns the sockets.
 */
describe.skipIf(!isRoot)('user workers: the launcher, the worker host and the wire, as real users', () => {
  const tmp = makeTempDir('kit-workers-');
  const runDir = path.join(tmp.dir, 'run');
  const scratch = path.join(tmp.dir, 'scratch');
  let workers: UserWorkers;
  let kit: ReturnType<typeof callClient<KitWorker, typeof kitCalls>>;
  const scope = (cun: string): KitScope => ({ cun, scratch });
  /** Until the front end has heard of the worker's exit (the launcher reports it), at most 30 s. */
  const stopped = async (user: string) => {
    for (let i = 0; i < 3000 && workers.running().get(user) !== undefined; i++)
      await new Promise((r) => setTimeout(r, 10));
  };

  beforeAll(async () => {
    await buildEntry();
    removeGroups(['kitgrp1']);
    execFileSync('groupadd', ['kitgrp1']);
    createUsers(USERS, {
      kitw1: ['-G', 'kitgrp1'],
      kitsys1: ['-r'],
      kitnol1: ['-s', '/usr/sbin/nologin'],
      kitsvc1: ['-r', '-s', '/usr/sbin/nologin'],
    });
    fs.mkdirSync(scratch, { mode: 0o1777 });
    fs.chmodSync(scratch, 0o1777);
    openPathTo(tmp.dir);
    // The front end's environment holds secrets; a worker (the user) must never see them.
    process.env.KIT_TEST_SECRET = 'front-end-secret';
    workers = new UserWorkers({
      name: 'kit-test',
      script: bundle,
      execArgv: [],
      runDir,
      rules,
      idleSeconds: 60,
      maxWorkers: 8,
      workerEnv: { KIT_WORKER_SETTING: 'on' },
    });
    await workers.startLauncher(idOf('kitsvc1'));
    kit = callClient<KitWorker, typeof kitCalls>(kitCalls, workers);
  }, 60_000);

  afterAll(async () => {
    delete process.env.KIT_TEST_SECRET;
    await workers?.close();
    removeUsers(USERS);
    removeGroups(['kitgrp1']);
    tmp.cleanup();
  });

  it("runs a call as its user: uid, gid, supplementary groups, the user's environment, none of the front end's", async () => {
    const me = await kit.whoami(scope('kitw1'));
    expect(me.uid).toBe(idOf('kitw1'));
    expect(me.gid).toBe(Number(execFileSync('id', ['-g', 'kitw1']).toString()));
    const grp = Number(execFileSync('getent', ['group', 'kitgrp1']).toString().split(':')[2]);
    expect(me.groups).toContain(grp);
    expect(me.env).toMatchObject({ USER: 'kitw1', LOGNAME: 'kitw1', KIT_WORKER_SETTING: 'on' });
    expect(me.env.KIT_TEST_SECRET).toBeUndefined();
    expect(me.env[LAUNCHER_ENV]).toBeUndefined();
    const other = await kit.whoami(scope('kitw2'));
    expect(other.uid).toBe(idOf('kitw2'));
    expect(other.groups).not.toContain(grp);
    expect(workers.running().get('kitw1')).not.toBe(workers.running().get('kitw2'));
  });

  it('answers every kind of call: plain, upload, download, lines, progress and a custom handle', async () => {
    const s = scope('kitw1');
    expect(await kit.echo(s, '数据')).toEqual({ a: '数据', b: null });
    expect(await kit.echo(s, 'x', 0)).toEqual({ a: 'x', b: 0 });
    const data = Buffer.from(Array.from({ length: 5 * 1024 * 1024 + 3 }, (_, i) => i % 251));
    const sum = await kit.sum(
      s,
      'five',
      (async function* () {
        for (let i = 0; i < data.length; i += 65536) yield data.subarray(i, i + 65536);
      })(),
    );
    expect(sum).toEqual({
      label: 'five',
      bytes: data.length,
      sha256: (await import('node:crypto')).createHash('sha256').update(data).digest('hex'),
    });
    expect((await kit.bytes(s, 300_000)).equals(Buffer.alloc(300_000, 7))).toBe(true);
    let n = 0;
    for await (const i of kit.count(s, 20_000)) expect(i).toBe(n++);
    expect(n).toBe(20_000);
    const seen: number[] = [];
    await kit.steps(s, 5, (p) => seen.push(p), new AbortController().signal);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    // Aborted by the front end: the call stops with the signal's reason.
    const ac = new AbortController();
    const stopped = kit.steps(s, 10_000, (p) => p === 3 && ac.abort(new Error('enough')), ac.signal);
    await expect(stopped).rejects.toThrow('enough');
    const c = await kit.counter(s, 41);
    expect(c.value).toBe(41);
    expect(await c.next()).toBe(42);
    expect(await c.next()).toBe(43);
    await c.close();
    await expect(c.next()).rejects.toMatchObject({ code: '1001' });
  });

  it("an upload cut by its client ends that call only: the user's other transfers and the worker go on", async () => {
    const s = scope('kitw1');
    await kit.echo(s, 'up');
    const pid = workers.running().get('kitw1');
    // A steady upload of the same user, and meanwhile one whose client goes away after its first megabyte (a
    // killed curl, or a body dropped as too slow): before, the cut was taken for the worker's death and every
    // call of the user failed with it, the worker left running and no longer counted.
    const steady = kit.sum(
      s,
      'steady',
      (async function* () {
        for (let i = 0; i < 40; i++) {
          yield Buffer.alloc(65536, 1);
          await new Promise((r) => setTimeout(r, 10));
        }
      })(),
    );
    const cut = new PassThrough();
    const cutCall = kit.sum(s, 'cut', cut);
    cut.write(Buffer.alloc(1024 * 1024, 2));
    await new Promise((r) => setTimeout(r, 50));
    cut.destroy(new Error('client went away'));
    await expect(cutCall).rejects.toMatchObject({ code: '1004' });
    expect(await steady).toMatchObject({ label: 'steady', bytes: 40 * 65536 });
    expect(workers.running().get('kitw1')).toBe(pid);
    expect(await kit.echo(s, 'still')).toEqual({ a: 'still', b: null });
  });

  it("a worker acts for its own user only, and answers only the table's calls", async () => {
    // A scope of another user sent to kitw1's worker (as a confused front end would): refused by the worker.
    await expect(
      workers.request('kitw1', '/call/whoami', { json: { scope: scope('kitw2'), args: [] } }),
    ).rejects.toMatchObject({ code: '1017' });
    for (const name of ['secret', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'counter'])
      await expect(
        workers.request('kitw1', `/call/${name}`, { json: { scope: scope('kitw1'), args: [] } }),
      ).rejects.toMatchObject({ code: '404' });
    await expect(workers.request('kitw1', '/whoami', { json: {} })).rejects.toMatchObject({ code: '404' });
  });

  it('binds sockets 0600 owned by the service account in a 0711 folder: another local user cannot connect', async () => {
    await kit.whoami(scope('kitw1'));
    const dir = path.join(runDir, 'workers');
    expect(fs.statSync(dir).mode & 0o7777).toBe(0o711);
    const socks = fs.readdirSync(dir).filter((f) => f.endsWith('.sock'));
    expect(socks.length).toBeGreaterThan(0);
    for (const f of socks) {
      const st = fs.statSync(path.join(dir, f));
      expect(st.mode & 0o777).toBe(0o600);
      expect(st.uid).toBe(idOf('kitsvc1'));
    }
    // kitw1 itself, from a shell of its own, cannot reach its worker's socket (nor anyone else's).
    const sock = path.join(dir, socks[0]!);
    const probe = `require('net').connect(${JSON.stringify(sock)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(0)})`;
    const out = execFileSync(process.execPath, ['-e', probe], { uid: idOf('kitw1'), gid: idOf('kitw1') });
    expect(out.toString().trim()).toBe('EACCES');
  });

  it('the launcher checks every account itself: root, a system account, a refused shell, an unknown name', async () => {
    const settings: LauncherSettings = {
      runDir: path.join(tmp.dir, 'run-direct'),
      rules,
      socketOwnerUid: 0,
      idleSeconds: 5,
      workerEnv: {},
    };
    const launcher = fork(bundle, ['launcher'], {
      env: { ...process.env, [LAUNCHER_ENV]: JSON.stringify(settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const replies = new Map<number, { error?: { code: string } }>();
    const waiters = new Map<number, () => void>();
    launcher.on('message', (m: { id?: number; error?: { code: string } }) => {
      if (m.id === undefined) return;
      replies.set(m.id, m);
      waiters.get(m.id)?.();
    });
    const ask = (id: number, user: string) =>
      new Promise<{ error?: { code: string } }>((resolve) => {
        waiters.set(id, () => resolve(replies.get(id)!));
        launcher.send({ op: 'start', id, user });
      });
    try {
      // Straight to the launcher, past the front end's own check.
      expect((await ask(1, 'root')).error?.code).toBe('1017');
      expect((await ask(2, 'kitsys1')).error?.code).toBe('1017');
      expect((await ask(3, 'kitnol1')).error?.code).toBe('1017');
      expect((await ask(4, 'kitnobody9')).error?.code).toBe('601009');
      expect((await ask(5, '../../etc/passwd')).error?.code).toBe('601009');
      expect((await ask(6, '-r')).error?.code).toBe('601009');
      expect(fs.readdirSync(path.join(settings.runDir, 'workers'))).toEqual([]);
    } finally {
      const exited = new Promise((r) => launcher.once('exit', r));
      launcher.disconnect();
      await exited;
    }
  });

  it('a worker that dies fails its call with 1001, the next call starts a new one; a repeatable call goes again', async () => {
    await kit.whoami(scope('kitw2'));
    const before = workers.running().get('kitw2');
    await expect(kit.die(scope('kitw2'))).rejects.toMatchObject({ code: '1001' });
    const after = (await kit.whoami(scope('kitw2'))).uid;
    expect(after).toBe(idOf('kitw2'));
    expect(workers.running().get('kitw2')).not.toBe(before);
    // Dies the first time: sent once more, to a new worker, which answers.
    const pid = workers.running().get('kitw2');
    expect(await kit.dieOnce(scope('kitw2'))).toMatch(/^answered by \d+$/);
    expect(workers.running().get('kitw2')).not.toBe(pid);
  });

  it("hands a client connection to the user's worker, which writes the answer and ends the connection", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 10 });
      void workers.handOff('kitw1', res, { any: 'job' }).then((r) => {
        if (!r.handed) res.end('relayed!!!');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const got = await new Promise<{ body: string; connection?: string }>((resolve, reject) =>
        http
          .get({ port, host: '127.0.0.1', agent: new http.Agent({ keepAlive: true }) }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ body, connection: res.headers.connection }));
          })
          .on('error', reject),
      );
      expect(Number(got.body)).toBe(idOf('kitw1'));
      expect(got.connection).toBe('close');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a restarted worker (the front end, or the admin command) comes back with the groups of now', async () => {
    await kit.whoami(scope('kitw2'));
    execFileSync('usermod', ['-aG', 'kitgrp1', 'kitw2']);
    const grp = Number(execFileSync('getent', ['group', 'kitgrp1']).toString().split(':')[2]);
    expect((await kit.whoami(scope('kitw2'))).groups).not.toContain(grp);
    // The admin's command, as an operator would run it.
    const out = execFileSync(process.execPath, [bundle, 'restart', 'kitw2'], {
      env: { ...process.env, KIT_TEST_RUN_DIR: runDir },
    }).toString();
    expect(out).toContain('stopped the worker of kitw2');
    // The stop reaches the front end as the worker's exit; until then a call may still meet the old one.
    await stopped('kitw2');
    const now = await kit.whoami(scope('kitw2'));
    expect(now.groups).toContain(grp);
    expect(workers.running().get('kitw2')).toBeDefined();
    workers.restart('kitw2');
    await stopped('kitw2');
    expect(workers.running().get('kitw2')).toBeUndefined();
    expect((await kit.whoami(scope('kitw2'))).uid).toBe(idOf('kitw2'));
  });
});
