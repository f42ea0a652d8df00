/**
 * Test support for the scaled-out layout (issue 12): starts it exactly as `npm run start:scaled` does
 * (scripts/scaled-layout.mjs: migrations, 2 efile processes per demo cluster, 2 portals, nginx) on free ports, on a
 * database of its own (`scaled_<random>`, created on TEST_DATABASE_URL's server and dropped afterwards) and on a
 * redis-server of its own (a second server on a free port, so stopping it for the outage test touches nobody else).
 * TEST_REDIS_URL only says that CI provides Redis; the tests need the `redis-server` binary to run their own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  OK,
  chunkFields,
  chunkIdentifier,
  chunkRange,
  totalChunks,
  type ChunkedFile,
} from '@hpc/contracts';
import {
  chunkForm,
  efileApi,
  identityApi,
  type ApiClient,
  type CallResult,
  type ChunkStored,
  type EfileCalls,
  type QueryParams,
} from '@hpc/api-client';
import {
  freePort,
  root,
  startScaled,
  type Layout,
  type StartScaledOptions,
} from '../scripts/scaled-layout.mjs';
import { endsWithThisProcess } from './child-process';
import { nodeClient, portalLoginCall, sessionClient } from './portal-session';

export { freePort, type Layout };

/**
 * The layout's public origin: with PUBLIC_URL set, the portal accepts logins only from pages of it (login CSRF), so
 * calls made straight to one portal instance still carry it.
 */
let publicOrigin: string | null = null;
const originFor = (base: string) => publicOrigin ?? new URL(base).origin;

/** Why the scaled-out tests cannot run here, or null when they can. */
export function scaledSkipReason(): string | null {
  const missing = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'].filter((v) => !process.env[v]);
  if (missing.length)
    return `${missing.join(' and ')} not set (the scaled-out layout needs PostgreSQL and Redis)`;
  if (spawnSync('redis-server', ['--version']).status !== 0) return 'redis-server is not installed';
  if (!fs.existsSync(path.join(root, 'apps/efile/dist/server.js')))
    return 'the servers are not built: run `node scripts/build.mjs`';
  return null;
}

/** Says loudly, once per file, that and why the scaled-out tests are skipped. */
export function announceSkip(file: string, reason: string | null): boolean {
  if (!reason) return false;
  const line = `SKIPPED ${file}: ${reason}`;
  console.warn(`\n${'!'.repeat(line.length + 8)}\n!!! ${line} !!!\n${'!'.repeat(line.length + 8)}\n`);
  return true;
}

/** A redis-server of the test's own, stoppable and restartable on the same port. */
export class OwnRedis {
  child: ChildProcess | null = null;
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start() {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    endsWithThisProcess(child);
    this.child = child;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      const r = spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' });
      if (r.stdout?.trim() === 'PONG') return;
      await sleep(50);
    }
  }
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
  cli(...args: string[]): string {
    return spawnSync('redis-cli', ['-p', String(this.port), ...args], { encoding: 'utf8' }).stdout.trim();
  }
}

export interface ScaledRun {
  layout: Layout;
  redis: OwnRedis;
  stop(): Promise<void>;
}

/** Creates the database, starts the own Redis and the layout; `stop()` undoes all three. */
export async function startScaledForTest(opts: Partial<StartScaledOptions> = {}): Promise<ScaledRun> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const dbName = `scaled_${crypto.randomBytes(5).toString('hex')}`;
  const admin = (sql: string) => {
    const r = spawnSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', base.toString(), '-c', sql], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`psql ${sql}: ${r.stderr}`);
  };
  admin(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(base.toString());
  dbUrl.pathname = `/${dbName}`;
  const redis = new OwnRedis(await freePort());
  await redis.start();
  let layout: Layout;
  try {
    layout = await startScaled({
      databaseUrl: dbUrl.toString(),
      redisUrl: redis.url,
      port: await freePort(),
      host: '127.0.0.1',
      quiet: true,
      ...opts,
      env: { UV_THREADPOOL_SIZE: '8', ...opts.env },
    });
  } catch (e) {
    await redis.stop();
    admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    throw e;
  }
  publicOrigin = new URL(layout.url).origin;
  return {
    layout,
    redis,
    async stop() {
      await layout.stop();
      await redis.stop();
      admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      fs.rmSync(layout.runDir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value other than undefined (no deadline: the test's own timeout bounds it). */
/**
 * Polls `check` until it answers. The limit is not a speed bar: it only turns a condition that never comes (a guard
 * removed, a lock that never expires) into a failure with a message, long before the test's own timeout.
 */
export async function until<T>(
  check: () => Promise<T | undefined>,
  everyMs = 100,
  limitMs = 180_000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`the awaited condition did not come within ${limitMs / 1000} s`);
    await sleep(everyMs);
  }
}

export const sha256 = (b: Buffer | Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

/**
 * An answer as the tests assert on it: the status and code of success and refusal alike (an {@link ApiClient.call}
 * result). `data` is typed as the success's: the tests assert the code first and read the data after it.
 */
export interface Envelope<T = unknown> {
  status: number;
  code: string;
  msg: string;
  data: T;
}

const asserted = <T>(r: CallResult<T>): Envelope<T> => ({
  status: r.status,
  code: r.code,
  msg: r.msg,
  // A refusal's data is the envelope's own (mostly null): the test has asserted the code before it reads it.
  data: r.data as T,
});

/** A logged-in portal user as seen from Node: cookies, CSRF token and the per-cluster tokens. */
export class PortalUser {
  private readonly clients = new Map<string, ApiClient>();

  constructor(
    public cookie: string,
    public csrf: string,
  ) {}

  static async login(base: string, username: string, password = 'demo-portal-2026') {
    const r = await portalLogin(base, username, password);
    if (r.env.code !== OK) throw new Error(`login ${username} at ${base}: ${r.env.code} ${r.env.msg}`);
    return r.user!;
  }

  /** The session's client for one portal instance (or nginx): the same cookie on every one of them. */
  client(base: string): ApiClient {
    let c = this.clients.get(base);
    if (!c) {
      c = sessionClient(base, () => this.cookie);
      this.clients.set(base, c);
    }
    return c;
  }

  async get<T>(base: string, p: string): Promise<Envelope<T>> {
    return asserted(await this.client(base).call<T>(p));
  }

  /** A POST as the page sends it: JSON, with the CSRF token and the layout's origin. */
  async post<T>(base: string, p: string, body: unknown = {}): Promise<Envelope<T>> {
    const headers = { [CSRF_HEADER]: this.csrf, origin: originFor(base) };
    return asserted(await this.client(base).call<T>(p, { method: 'POST', json: body, headers }));
  }

  /** The user's token for a cluster (from /api/user/info on `base`). */
  async token(base: string, clusterId: string): Promise<string> {
    const info = await identityApi(this.client(base)).user.info();
    const t = info.tokenList.find((x) => x.clusterId === clusterId);
    if (!t) throw new Error(`no token for ${clusterId}`);
    return t.token;
  }
}

/** A login call: its answer, and the session it opened when it succeeded (the cookies it set). */
export async function portalLogin(base: string, username: string, password: string) {
  const { result, cookies } = await portalLoginCall(
    base,
    { username, password },
    { origin: originFor(base) },
  );
  const env = asserted(result);
  const csrf = cookies.find((c) => c.startsWith(`${CSRF_COOKIE}=`))?.split('=')[1] ?? '';
  return { env, user: env.code === OK ? new PortalUser(cookies.join('; '), csrf) : null };
}

/** Calls to one efile instance (its base URL, e.g. http://127.0.0.1:<port>) with a cluster token. */
export class EfileClient {
  readonly client: ApiClient;
  /** The typed calls of the instance, for the calls a test makes without asserting on a refusal. */
  readonly api: EfileCalls;

  constructor(
    public base: string,
    public token: string,
    clusterId: string,
  ) {
    this.client = nodeClient(base, { headers: () => ({ token: this.token }) });
    this.api = efileApi(this.client, clusterId);
  }

  async get<T>(p: string, query: QueryParams = {}): Promise<Envelope<T>> {
    return asserted(await this.client.call<T>(p, { query }));
  }

  async post<T>(p: string, body: unknown): Promise<Envelope<T>> {
    return asserted(await this.client.call<T>(p, { method: 'POST', json: body }));
  }

  async home(): Promise<string> {
    return (await this.api.initInfo()).homePath;
  }
}

/** One upload cut into chunks by the shared protocol (packages/contracts/src/chunk-protocol.ts). */
export class ChunkedUpload {
  readonly totalChunks: number;
  readonly identifier: string;
  private readonly file: ChunkedFile;
  constructor(
    readonly data: Buffer,
    readonly folder: string,
    readonly name: string,
    readonly chunkSize = 1024 * 1024,
  ) {
    this.file = { size: data.length, chunkSize, relativePath: name, path: folder };
    this.totalChunks = totalChunks(data.length, chunkSize);
    this.identifier = chunkIdentifier(data.length, name);
  }

  params(n: number): Record<string, string> {
    return chunkFields(this.file, n);
  }

  /** POSTs chunk `n` to `efile` as the browser does (fields first, the file part last). */
  async send(efile: EfileClient, n: number) {
    const { start, end } = chunkRange(n, this.data.length, this.chunkSize);
    const chunk = new Blob([new Uint8Array(this.data.subarray(start, end))]);
    const body = chunkForm(this.params(n), chunk, this.name);
    return asserted(await efile.client.call<ChunkStored>('/chunkUpload.action', { method: 'POST', body }));
  }

  merge(efile: EfileClient) {
    return efile.post<{ path: string; size: number }>('/merge.action', {
      path: this.folder,
      relativePath: this.name,
      identifier: this.identifier,
    });
  }

  status(efile: EfileClient) {
    return efile.get<{ stored: number[]; totalChunks: number; complete: boolean }>(
      '/upload/chunkStatus.action',
      {
        path: this.folder,
        relativePath: this.name,
        identifier: this.identifier,
      },
    );
  }
}

/** Host path of a cluster path in the layout's shared cluster folder. */
export const hostPath = (layout: Layout, clusterId: string, clusterPath: string) =>
  path.join(layout.dataDir, 'clusters', clusterId, clusterPath);
