import { CSRF_COOKIE, CSRF_HEADER, REQUEST_TIME_HEADER } from '@hpc/contracts';
import { encodeRequestTime } from '@hpc/api-client';
import { buildAllInOne } from './all-in-one';

/** The demo users' password the tests start the all-in-one with. */
export const PASSWORD = 'demo-portal-2026';
export type App = Awaited<ReturnType<typeof buildAllInOne>>['app'];

/**
 * The all-in-one as `npm start` runs it, on the demo data in `dataDir` (with `more` of the environment), ready for
 * calls. SQLite and an in-process store: its PostgreSQL mode uses fixed efile schema names, which test files run
 * in parallel would share.
 */
export async function startDemo(dataDir: string, more: Record<string, string> = {}): Promise<App> {
  const { app } = await buildAllInOne({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    PORTAL_DEMO_PASSWORD: PASSWORD,
    DATABASE_URL: '',
    REDIS_URL: '',
    ...more,
  });
  await app.ready();
  return app;
}

/** The login call of the page, without a cookie jar: the response, for its cookies and its token list. */
export async function loginCall(app: App, username: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { [REQUEST_TIME_HEADER]: await encodeRequestTime(), 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password: PASSWORD }),
  });
}

/**
 * A browser on the all-in-one: its cookies (one the server clears is forgotten), the request-time header, the CSRF
 * header (left out with `noCsrf`, as a forged request would be), and its user agent when given.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    protected readonly app: App,
    readonly agent?: string,
  ) {}
  async call(method: 'GET' | 'POST', url: string, json?: unknown, noCsrf = false) {
    const headers: Record<string, string> = { [REQUEST_TIME_HEADER]: await encodeRequestTime() };
    if (this.agent) headers['user-agent'] = this.agent;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (csrf && !noCsrf) headers[CSRF_HEADER] = csrf;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await this.app.inject({
      method,
      url,
      headers,
      payload: json === undefined ? undefined : JSON.stringify(json),
    });
    for (const c of res.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0)) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
}
