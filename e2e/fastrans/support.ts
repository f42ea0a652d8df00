import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { logInAs } from '../support/login';
import { freePort } from '../support/portal';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'apps/all-in-one/dist/main.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `check` gives a value (polled; the test's own timeout bounds it, no timed assertion). With `deadline`,
 * it fails after `ms` with what `explain` says of the moment: a wait that hangs then tells why in the log, where the
 * test's own timeout would only name the line.
 */
export async function until<T>(
  check: () => T | undefined | Promise<T | undefined>,
  everyMs = 100,
  deadline?: { ms: number; explain: () => string | Promise<string> },
): Promise<T> {
  const end = deadline ? Date.now() + deadline.ms : Infinity;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() >= end)
      throw new Error(`still waiting after ${deadline!.ms} ms: ${await deadline!.explain()}`);
    await sleep(everyMs);
  }
}

export function sha256File(file: string): string {
  const h = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(8 * 1024 * 1024);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

/** Every file below `dir` (relative path → sha256). */
export function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.set(r, sha256File(path.join(d, e.name)));
    }
  };
  walk(dir, '');
  return out;
}

/**
 * A folder of `n` small files (a few hundred bytes to 8 KB each), in two levels of subfolders when `nested`.
 * Uploads use flat folders for now: efile's tar batch does not yet create a missing folder below a missing folder
 * (reported to the transfer feature's owner).
 */
export function smallFiles(dir: string, n: number, nested = false): void {
  for (let i = 0; i < n; i++) {
    const sub = nested ? path.join(dir, `d${i % 10}`, `e${i % 7}`) : dir;
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `f${i}.txt`), crypto.randomBytes(200 + ((i * 37) % 8000)));
  }
}

/** A file of random bytes written in 16 MiB pieces (no 1 GiB buffer in memory). */
export function bigFile(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  const piece = crypto.randomBytes(16 * 1024 * 1024);
  try {
    for (let done = 0; done < bytes;) {
      const n = Math.min(piece.length, bytes - done);
      // Each piece differs (its first bytes are its offset), so a range written at the wrong offset shows.
      piece.writeUInt32BE(done / 1024, 0);
      fs.writeSync(fd, piece, 0, n);
      done += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The built all-in-one portal (efile inside it) on a fixed port and data folder, so that it can be killed with
 * SIGKILL and started again where it was: the efile server killed in the middle of an upload.
 */
export class Portal {
  child: ChildProcess | null = null;
  log = '';
  /** More of the portal's environment, kept for every start (PUBLIC_URL: the proxy in front of it). */
  env: Record<string, string> = {};
  constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async create(dataDir: string) {
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`node scripts/build.mjs\` first`);
    return new Portal(await freePort(), dataDir);
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    const child = spawn(process.execPath, [entry], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const append = (c: Buffer) => {
      this.log = (this.log + c.toString()).slice(-20_000);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`portal exited:\n${this.log}`);
      try {
        return (await fetch(`${this.url}/image-center/image/acceleratorType/list`)).ok || undefined;
      } catch {
        return undefined;
      }
    }, 250);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL') {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  }
}

/**
 * A proxy in front of the portal that the page, the package download and so the client all use. It can hold every
 * range upload after the next `allow` unanswered: the upload is then surely in the middle when a test kills
 * something, whatever the machine's speed.
 */
export async function rangeProxy(target: string) {
  const state = {
    holdAfter: Infinity,
    ranges: 0,
    held: [] as http.ServerResponse[],
    refused: null as string | null,
    seen: new Map<string, number>(),
  };
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer((req, res) => {
    const p = req.url ?? '';
    const route = p.split('?')[0]!;
    state.seen.set(route, (state.seen.get(route) ?? 0) + 1);
    if (state.refused && route.includes(state.refused)) {
      req.resume();
      res.writeHead(502).end();
      return;
    }
    if (p.includes('/fastrans/range.action')) {
      state.ranges++;
      if (state.ranges > state.holdAfter) {
        state.held.push(res);
        req.resume();
        return;
      }
    }
    const up = http.request(target + p, { method: req.method, headers: req.headers, agent }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
  server.on('upgrade', (_req, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    /** Holds every range after the next `n`. */
    holdAfter(n: number) {
      state.ranges = 0;
      state.holdAfter = n;
    },
    held: () => state.held.length,
    /** Answers 502 to every request whose path contains `part` (a network in between that lets only some through). */
    refuse(part: string | null) {
      state.refused = part;
    },
    /** How many requests of this path came through the proxy (refused ones included). */
    seen: (route: string) => state.seen.get(route) ?? 0,
    /** Every path's count so far (for a failure's log). */
    counts: () => Object.fromEntries(state.seen),
    /** Lets everything through again; the held requests fail (the client sends them again). */
    release() {
      state.holdAfter = Infinity;
      for (const r of state.held) r.destroy();
      state.held = [];
    },
    async close() {
      this.release();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Downloads the package from the portal as a user would, logged in as `username` (the package then carries that
 * user's client key, which the page has the portal verify), and unpacks it; returns the unpacked folder.
 */
export async function downloadPackage(
  browser: Browser,
  origin: string,
  into: string,
  username = 'demo',
): Promise<string> {
  const { ctx } = await logInAs(browser, origin, username);
  let body: Buffer;
  try {
    const res = await ctx.request.get(`${origin}/share/fasttrans-client.tar.gz`);
    if (res.status() !== 200) throw new Error(`package download answered ${res.status()}`);
    body = await res.body();
  } finally {
    await ctx.close();
  }
  const tgz = path.join(into, 'fasttrans-client.tar.gz');
  fs.writeFileSync(tgz, body);
  execFileSync('tar', ['xzf', tgz, '-C', into]);
  return path.join(into, 'fasttrans-client');
}

/** The ports the e2e client may take: spec ports the page tries, late in its order (a real client keeps 9527). */
export const CLIENT_PORTS = '59527,49527,39527';

export interface RunningClient {
  child: ChildProcess;
  port: number;
  output(): string;
}

/**
 * Starts the unpacked client as its README says (`./fastrans`, or `node fastrans.cjs` where there is no single
 * executable), as a user whose home is `home`; resolves once it logged its port.
 */
export function startClient(
  dir: string,
  home: string,
  opts: { cjs?: boolean; env?: NodeJS.ProcessEnv } = {},
) {
  const exe = path.join(dir, 'fastrans');
  const [cmd, args] =
    !opts.cjs && fs.existsSync(exe) ? [exe, []] : [process.execPath, [path.join(dir, 'fastrans.cjs')]];
  const child = spawn(cmd, args, {
    cwd: dir,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', FASTRANS_PORTS: CLIENT_PORTS, ...opts.env },
  });
  return new Promise<RunningClient>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), output: () => out });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`client exited (${code}): ${out}`)));
  });
}

export async function stopClient(c: RunningClient | null, signal: NodeJS.Signals = 'SIGTERM') {
  if (!c || c.child.exitCode !== null || c.child.signalCode !== null) return;
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.kill(signal);
  await exited;
}

/** What a fast-transfer test file runs against; see {@link startStage}. */
export interface Stage {
  portal: Portal;
  proxy: Awaited<ReturnType<typeof rangeProxy>>;
  browser: Browser;
  /** The unpacked client package. */
  pkg: string;
  /** The local user's home (empty). */
  home: string;
  /** The demo user's home on this machine (cluster 11250, /public/home/demo). */
  remoteHome: string;
}

/**
 * Starts, in `work`, the built portal behind the range proxy, which is its public address (PUBLIC_URL: the package
 * names it, never a request's Host), and a browser (with `browserArgs`), then downloads the client package from the
 * portal as a user would. What started is stopped again when a later step fails.
 */
export async function startStage(
  work: string,
  browserArgs: (proxyOrigin: string) => string[] = () => [],
): Promise<Stage> {
  const portal = await Portal.create(path.join(work, 'data'));
  const started: Partial<Stage> = { portal };
  try {
    const proxy = (started.proxy = await rangeProxy(portal.url));
    portal.env.PUBLIC_URL = proxy.origin;
    await portal.start();
    const browser = (started.browser = await launchBrowser(browserArgs(proxy.origin)));
    const pkg = await downloadPackage(browser, proxy.origin, work);
    const home = path.join(work, 'home');
    fs.mkdirSync(home, { recursive: true });
    const remoteHome = path.join(portal.dataDir, 'clusters/11250/public/home/demo');
    return { portal, proxy, browser, pkg, home, remoteHome };
  } catch (e) {
    await stopStage(started, null);
    throw e;
  }
}

/** Kills the client, then stops what {@link startStage} started (what never started is passed over). */
export async function stopStage(
  stage: Partial<Pick<Stage, 'portal' | 'proxy' | 'browser'>>,
  client: RunningClient | null,
): Promise<void> {
  await stopClient(client, 'SIGKILL');
  await stage.browser?.close();
  await stage.proxy?.close();
  await stage.portal?.kill('SIGTERM');
}
