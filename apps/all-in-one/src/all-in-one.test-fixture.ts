import { REQUEST_TIME_HEADER } from '@hpc/contracts';
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
