import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, REQUEST_TIME_HEADER } from '@hpc/contracts';
import { makeTempDir, type TestDbTarget } from '@hpc/server-kit/testing';
import { encodeRequestTime } from '@hpc/api-client';
import { buildPortal } from '../../app';
import { readPortalConfig } from '../../config';
import { seedIdentity } from './identity.seed';

/** Test support for the identity features (not a test file itself): a portal on a temp DATA_DIR and a cookie jar. */

export const DEMO_PASSWORD = 'demo-portal-2026';

export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export type TestDb = ReturnType<TestDbTarget['create']>;

/** Builds the portal on `dataDir` and the given database, with the identity demo data (not the catalogue's). */
export async function startPortal(
  dataDir: string,
  db: Pick<TestDb, 'url' | 'schema'>,
  env: Record<string, string> = {},
  clock?: TestClock,
) {
  const config = {
    ...readPortalConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env }),
    ...(env.DATABASE_URL ? {} : { databaseUrl: db.url }),
    databaseSchema: db.schema,
    now: clock?.now,
  };
  const built = await buildPortal(config);
  await seedIdentity(built.deps);
  return built;
}

type Built = Awaited<ReturnType<typeof startPortal>>;
type Portal = Built['app'];

/**
 * A portal for one describe block: started (temp DATA_DIR, the target's database, identity demo data) before its
 * tests, closed and cleaned after them. The returned object is filled in by then (`portal.app`, `portal.deps`).
 */
export function usePortal(target: TestDbTarget, env: Record<string, string> = {}, clock?: TestClock): Built {
  const portal = {} as Built;
  let tmp: ReturnType<typeof makeTempDir> | undefined;
  let db: TestDb | undefined;
  beforeAll(async () => {
    tmp = makeTempDir();
    db = target.create();
    Object.assign(portal, await startPortal(tmp.dir, db, env, clock));
  });
  afterAll(async () => {
    await portal.app?.close();
    await db?.cleanup();
    tmp?.cleanup();
  });
  return portal;
}

export interface CallOptions {
  json?: unknown;
  form?: string;
  headers?: Record<string, string>;
  /** Leave out the request-time header. */
  noTime?: boolean;
  /** Leave out the CSRF header. */
  noCsrf?: boolean;
}

/** A browser: keeps cookies, sends the request-time header and echoes the CSRF cookie in the CSRF header. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: Portal,
    readonly ip = '10.0.0.1',
  ) {}

  async call(method: 'GET' | 'POST', url: string, opts: CallOptions = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (!opts.noTime) headers[REQUEST_TIME_HEADER] = await encodeRequestTime();
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (csrf && !opts.noCsrf) headers[CSRF_HEADER] = csrf;
    let payload: string | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(opts.json);
    } else if (opts.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = opts.form;
    }
    const res = await this.app.inject({ method, url, headers, payload, remoteAddress: this.ip });
    for (const c of res.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0)) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get = (url: string, opts?: CallOptions) => this.call('GET', url, opts);
  post = (url: string, opts?: CallOptions) => this.call('POST', url, opts);

  async login(username: string, password = DEMO_PASSWORD): Promise<LightMyRequestResponse> {
    return this.post('/api/auth/login', { json: { username, password } });
  }
}

/** The envelope's data of an answer, typed by the caller. */
export const dataOf = <T>(res: LightMyRequestResponse): T => res.json<{ data: T }>().data;

/** A browser already logged in as `username` (throws if the login fails). */
export async function loggedIn(app: Portal, username: string, ip?: string): Promise<Browser> {
  const b = new Browser(app, ip);
  const res = await b.login(username);
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return b;
}
