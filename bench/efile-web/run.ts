/**
 * E-File in the browser, measured (issue 5 §4): a folder of 100,000 entries opened on its first page and paged in
 * Chromium, and a 200 MB upload through the page compared with the same chunk protocol spoken from Node against
 * the same server. Run after `npm run build -w @hpc/web`:  npx tsx bench/efile-web/run.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '@hpc/e2e/support/browser';
import { buildAllInOne } from '@hpc/all-in-one';
import { logIn } from './session';
import { nodeUpload } from './node-upload';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const HOME = '/public/home/demo';
/** What the upload's wait reads in the page (the bench is typed without the DOM library). */
type PageGlobals = { document: { querySelector(selector: string): unknown } };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'efile-web-bench-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const { app } = await buildAllInOne({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
await app.listen({ port, host: '127.0.0.1' });
const url = `http://127.0.0.1:${port}`;
const session = await logIn(url, 'demo', 'demo-portal-2026');
const token = session.token('11250');
// The first call seeds the demo home.
await fetch(`${url}/efile/11250/initInfo.action`, { headers: { token } });

const home = path.join(dataDir, 'clusters/11250', HOME);
const big = path.join(home, 'big');
fs.mkdirSync(big, { recursive: true });
console.log(`creating ${ENTRIES} entries…`);
for (let i = 0; i < ENTRIES; i++) fs.writeFileSync(path.join(big, `f${String(i).padStart(6, '0')}.dat`), '');

const file = path.join(dataDir, 'upload.bin');
fs.writeFileSync(file, crypto.randomBytes(UPLOAD_MB * 1024 * 1024));
const node = await nodeUpload({ url: `${url}/efile/11250`, token, file, dir: HOME, name: 'node-upload.bin' });
console.log(`node chunk protocol: ${node.mbps.toFixed(1)} MB/s`);

const browser = await launchBrowser();
const ctx = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
const page = await ctx.newPage();
// Log in as a user does and land where the portal puts them (the home page). Nothing of E-File has run in this
// fresh context yet, so the first open below is a session's true first visit: the E-File code, the service's
// health check and the uncached listing are all on its clock.
await page.goto('/login');
await page.locator('form input').first().fill('demo');
await page.locator('form input[type=password]').fill('demo-portal-2026');
await page.locator('form button[type=submit]').click();
await page.waitForURL((u) => u.pathname === '/main-page');
await page.waitForLoadState('networkidle');

const opens: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = Date.now();
  await page.goto(`/efile?cluster=11250&path=${encodeURIComponent(`${HOME}/big`)}&r=${i}`);
  await page.getByTestId('efile-name').filter({ hasText: 'f000000.dat' }).waitFor();
  opens.push(Date.now() - t0);
}
const pages: number[] = [];
for (let i = 0; i < 10; i++) {
  const first = `f${String((i + 1) * 20).padStart(6, '0')}.dat`;
  const t0 = Date.now();
  await page.locator('.ant-pagination-next').click();
  await page.getByTestId('efile-name').filter({ hasText: first }).waitFor();
  pages.push(Date.now() - t0);
}
console.log(
  `open 100k folder (goto → first row): first (cold) ${opens[0]} ms, median of 5 ${median(opens)} ms ${JSON.stringify(opens)}`,
);
console.log(`next page: median ${median(pages)} ms, max ${Math.max(...pages)} ms`);

await page.goto(`/efile?cluster=11250&path=${encodeURIComponent(HOME)}`);
await page.getByTestId('efile-name').first().waitFor();
const t0 = Date.now();
await page.getByTestId('efile-input-files').setInputFiles(file);
// A plain query every 20 ms rather than a locator's wait, which checks the element's visibility each time it polls:
// on this page that forced a style and layout of the whole document several times a second during the upload.
await page.waitForFunction(
  () =>
    (globalThis as unknown as PageGlobals).document.querySelector(
      '[data-testid=efile-upload-status][data-status=success]',
    ) !== null,
  undefined,
  { polling: 20, timeout: 600_000 },
);
const browserSecs = (Date.now() - t0) / 1000;
const browserMbps = UPLOAD_MB / browserSecs;
const same =
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(home, 'upload.bin')))
    .digest('hex') === crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
console.log(
  `browser upload: ${browserMbps.toFixed(1)} MB/s (${(browserMbps / node.mbps).toFixed(2)} of Node), bytes equal: ${same}`,
);

console.log(
  JSON.stringify({
    entries: ENTRIES,
    coldOpenMs: opens[0],
    openMedianMs: median(opens),
    pageMedianMs: median(pages),
    pageMaxMs: Math.max(...pages),
    nodeMBps: +node.mbps.toFixed(1),
    browserMBps: +browserMbps.toFixed(1),
    ratio: +(browserMbps / node.mbps).toFixed(2),
  }),
);
await browser.close();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
