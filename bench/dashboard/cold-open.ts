/**
 * The Dashboard's cold open (issue 22 §4: "it opens in under 1 s on the cold start of a logged-in user"): the built
 * all-in-one in unix mode with the demo cluster's job service on the real Slurm (as `npm run start:cluster` runs
 * it), Chromium logged in as demo. Each round is a fresh browser context (no HTTP cache, no code loaded) holding only
 * the session cookie; the time is the page's own, from the navigation's start to the moment every widget shows its
 * data or its error (no skeleton left). Round 1 is also the portal process's first Dashboard (its caches cold).
 *
 * Needs root and the scheduler of `npm run start:cluster -- --daemons-only`, and `node scripts/build.mjs` first.
 * Run: `npx tsx bench/dashboard/cold-open.ts` (DASH_ROUNDS=5). Figures go to docs/PERFORMANCE.md by hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../../test-support/browser';
import { startPortal } from '../../test-support/built-portal';
import { schedulerMissing } from '../../test-support/slurm-cluster';
import { median, reporter } from '../bench-kit';

const ROUNDS = Number(process.env.DASH_ROUNDS ?? 5);
const { say } = reporter();
const missing = schedulerMissing();
if (missing) {
  console.error(`bench/dashboard needs the real scheduler: ${missing}`);
  process.exit(2);
}
// The unix mode, as on a cluster: the portal's data folder must be reachable by the users' workers.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dash-bench-'));
fs.chmodSync(dataDir, 0o711);
const portal = await startPortal({ DATA_DIR: dataDir, EFILE_USER_MODE: 'unix', JOBS_CLUSTER_ID: '11250' });
const { url } = portal;

const browser = await launchBrowser();
try {
  // The session cookie of one login, handed to each fresh context.
  const login = await browser.newContext({ baseURL: url });
  const lp = await login.newPage();
  await lp.goto('/login');
  await lp.locator('form input').first().fill('demo');
  await lp.locator('form input[type=password]').fill('demo-portal-2026');
  await lp.locator('form button[type=submit]').click();
  await lp.waitForURL((u) => u.pathname === '/main-page');
  const state = await login.storageState();
  await login.close();

  const times: number[] = [];
  const afterLogin: number[] = [];
  for (let r = 0; r < ROUNDS * 2; r++) {
    // Even rounds: a browser that has never seen the portal (no HTTP cache), holding only the session cookie. Odd
    // rounds: the user's own start, in a fresh browser: the login page (whose code is then cached), the login, then
    // the Dashboard opened as a page of its own (its code, the queries and every service cold).
    const cold = r % 2 === 0;
    const ctx = await browser.newContext({
      baseURL: url,
      viewport: { width: 1440, height: 900 },
      ...(cold ? { storageState: state } : {}),
    });
    const page = await ctx.newPage();
    if (!cold) {
      await page.goto('/login');
      await page.locator('form input').first().fill('demo');
      await page.locator('form input[type=password]').fill('demo-portal-2026');
      await page.locator('form button[type=submit]').click();
      await page.waitForURL((u) => u.pathname === '/main-page');
    }
    await page.goto('/dashboard');
    // Every widget drawn (entries, accounts, then jobs, partitions, storage and recent files per cluster), no skeleton
    // left on the page: the page's clock at that frame.
    const ms = await page.waitForFunction(
      () => {
        const doc = (
          globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
        ).document;
        return doc.querySelectorAll('.hpc-dash-widget').length >= 6 &&
          doc.querySelectorAll('.hpc-dash .ant-skeleton').length === 0
          ? performance.now()
          : false;
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    const t = (await ms.jsonValue()) as number;
    (cold ? times : afterLogin).push(t);
    // Where the time went: the page's resource timings (the code, and each call until it answered).
    type Timing = { name: string; startTime: number; responseEnd: number };
    const calls: Timing[] = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as unknown as Timing[])
        .map((e) => ({
          name: e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 70),
          startTime: Math.round(e.startTime),
          responseEnd: Math.round(e.responseEnd),
        }))
        .sort((x, y) => x.startTime - y.startTime),
    );
    if (process.env.DASH_DETAIL)
      for (const c of calls) console.log(`    ${c.name}: ${c.startTime}–${c.responseEnd} ms`);
    say(
      `round ${r + 1}, ${cold ? 'a browser new to the portal' : 'just logged in'}${r === 0 ? " (the portal process's first Dashboard)" : ''}: ${t.toFixed(0)} ms`,
    );
    await ctx.close();
  }
  say(
    `Dashboard, a browser new to the portal (only the session cookie): first ${times[0]!.toFixed(0)} ms, median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms of ${ROUNDS}`,
  );
  say(
    `Dashboard just after the login, opened as a page of its own: median ${median(afterLogin).toFixed(0)} ms, max ${Math.max(...afterLogin).toFixed(0)} ms of ${ROUNDS} (bar < 1,000 ms)`,
  );
} finally {
  await browser.close();
  await portal.stop();
  await new Promise((r) => setTimeout(r, 1000));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
