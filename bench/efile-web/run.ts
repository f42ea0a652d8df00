/**
 * E-File in the browser, measured (issue 5 §4): a folder of 100,000 entries opened on its first page and paged in
 * Chromium, and a 200 MB upload through the page compared with the same chunk protocol spoken from Node against
 * the same server. Run:  npx tsx bench/efile-web/run.ts  (builds the web app first when its build is missing or
 * older than its sources; WEB_DIST=<dir> measures another build as it is). Open and paging times are taken inside
 * the page (paint-clock.ts); the `…Wall…` figures time the same actions from Node around playwright's calls, the
 * way the bench did before (less its locator's polling), to show what that way adds.
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../test-support/browser';
import { efileCalls } from '../../test-support/stand-in-portal';
import { buildAllInOne } from '@hpc/all-in-one';
import { logIn } from './session';
import { nodeUpload } from './node-upload';
import { armPaintClock, FIRST_ROW, installPaintClock, paintTiming, type PaintTiming } from './paint-clock';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The portal serves apps/web/dist: without it the bench waited out its timeout on a login form that never came,
// and with a stale one it measured old code. The same staleness test as `npm start` (scripts/build.mjs).
if (!process.env.WEB_DIST) {
  const build = (await import(pathToFileURL(path.join(root, 'scripts/build.mjs')).href)) as {
    webIsStale(): boolean;
  };
  if (build.webIsStale()) {
    console.log('building the web app…');
    execFileSync('npm', ['run', 'build', '-w', '@hpc/web'], { cwd: root, stdio: 'inherit' });
  }
}

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const HOME = '/public/home/demo';
/** What the upload's wait reads in the page (the bench is typed without the DOM library). */
type PageGlobals = { document: { querySelector(selector: string): unknown } };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The 2 cores are shared: the load when the run starts says whether its figures can be judged.
const load1 = os.loadavg()[0]!;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'efile-web-bench-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const { app } = await buildAllInOne({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
await app.listen({ port, host: '127.0.0.1' });
const url = `http://127.0.0.1:${port}`;
const session = await logIn(url, 'demo', 'demo-portal-2026');
const token = session.token('11250');
// The first call seeds the demo home.
await efileCalls(`${url}/efile/11250`, token, '11250').initInfo();

const home = path.join(dataDir, 'clusters/11250', HOME);
const big = path.join(home, 'big');
fs.mkdirSync(big, { recursive: true });
console.log(`creating ${ENTRIES} entries…`);
for (let i = 0; i < ENTRIES; i++) fs.writeFileSync(path.join(big, `f${String(i).padStart(6, '0')}.dat`), '');

const file = path.join(dataDir, 'upload.bin');
fs.writeFileSync(file, crypto.randomBytes(UPLOAD_MB * 1024 * 1024));
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const fileSha = sha(file);
const nodeRound = (name: string) => nodeUpload({ url: `${url}/efile/11250`, token, file, dir: HOME, name });
// Warm-up, not counted: the first upload of a process runs its upload path cold (JIT, first partial file).
console.log(`node chunk protocol, warm-up: ${(await nodeRound('node-warm-up.bin')).mbps.toFixed(1)} MB/s`);

const browser = await launchBrowser();
const ctx = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
await ctx.addInitScript(installPaintClock, FIRST_ROW);
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

/** The armed measure of the page clock, in ms; a row that never comes fails the run rather than hanging it. */
const painted = async (p: Page) => {
  let timer: NodeJS.Timeout | undefined;
  const t = await Promise.race([
    p.evaluate(paintTiming),
    new Promise<PaintTiming>((_, reject) => {
      timer = setTimeout(() => reject(new Error('row not painted in 30 s')), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  return Math.round(t.painted - t.start);
};
const rowName = (pageNum: number) => `f${String((pageNum - 1) * 20).padStart(6, '0')}.dat`;

const opens: number[] = [];
const opensWall: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = Date.now();
  await page.goto(`/efile?cluster=11250&path=${encodeURIComponent(`${HOME}/big`)}&r=${i}`);
  opens.push(await painted(page));
  opensWall.push(Date.now() - t0);
}
// Turning pages as a reader does, not the instant the last one is painted: by then the page has asked for the next
// one in the background (usePrefetchNextPage), which is what "next page" shows. `jumps` go to pages nobody asked
// for yet (the quick jumper), so the request to the server is on their clock.
const pause = () => page.waitForTimeout(500);
const pages: number[] = [];
const pagesWall: number[] = [];
for (let i = 0; i < 10; i++) {
  await pause();
  await page.evaluate(armPaintClock, rowName(i + 2));
  const t0 = Date.now();
  await page.locator('.ant-pagination-next').click();
  pages.push(await painted(page));
  pagesWall.push(Date.now() - t0);
}
const jumps: number[] = [];
for (const to of [500, 1000, 1500, 2000, 2500]) {
  await pause();
  const jumper = page.locator('.ant-pagination-options-quick-jumper input');
  await jumper.fill(String(to));
  await page.evaluate(armPaintClock, rowName(to));
  await jumper.press('Enter');
  jumps.push(await painted(page));
}
console.log(
  `open 100k folder (navigation start → first row painted): first (cold) ${opens[0]} ms, median of 5 ${median(opens)} ms ${JSON.stringify(opens)}; timed from Node ${JSON.stringify(opensWall)}`,
);
console.log(
  `next page (click → rows painted): median ${median(pages)} ms, max ${Math.max(...pages)} ms ${JSON.stringify(pages)}; timed from Node median ${median(pagesWall)} ms`,
);
console.log(`jump to an unvisited page (Enter → rows painted): ${JSON.stringify(jumps)} ms`);

// Upload rounds, Node then the page in turn, each into a folder of its own (so the page meets no name conflict):
// on 2 shared cores one upload's figure moves by ±20 %, the median of three much less.
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
const nodeSpeeds: number[] = [];
const browserSpeeds: number[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  nodeSpeeds.push((await nodeRound(`node-${r}.bin`)).mbps);
  const dir = `${HOME}/upload-${r}`;
  fs.mkdirSync(path.join(home, `upload-${r}`));
  await page.goto(`/efile?cluster=11250&path=${encodeURIComponent(dir)}`);
  const input = page.getByTestId('efile-input-files');
  await input.waitFor({ state: 'attached' });
  const t0 = Date.now();
  await input.setInputFiles(file);
  // A plain query every 20 ms rather than a locator's wait, which checks the element's visibility each time it
  // polls: on this page that forced a style and layout of the whole document several times a second.
  await page.waitForFunction(
    () =>
      (globalThis as unknown as PageGlobals).document.querySelector(
        '[data-testid=efile-upload-status][data-status=success]',
      ) !== null,
    undefined,
    { polling: 20, timeout: 600_000 },
  );
  browserSpeeds.push(UPLOAD_MB / ((Date.now() - t0) / 1000));
  if (sha(path.join(home, `upload-${r}`, 'upload.bin')) !== fileSha)
    throw new Error(`round ${r}: bytes differ`);
  console.log(
    `upload round ${r}: Node ${nodeSpeeds.at(-1)!.toFixed(1)} MB/s, page ${browserSpeeds.at(-1)!.toFixed(1)} MB/s (bytes equal)`,
  );
}
const nodeMbps = median(nodeSpeeds);
const browserMbps = median(browserSpeeds);
console.log(
  `browser upload: median ${browserMbps.toFixed(1)} MB/s, ${(browserMbps / nodeMbps).toFixed(2)} of Node's median ${nodeMbps.toFixed(1)} MB/s`,
);

console.log(
  JSON.stringify({
    entries: ENTRIES,
    load1: +load1.toFixed(2),
    coldOpenMs: opens[0],
    openMedianMs: median(opens),
    pageMedianMs: median(pages),
    pageMaxMs: Math.max(...pages),
    jumpMedianMs: median(jumps),
    jumpMaxMs: Math.max(...jumps),
    coldOpenWallMs: opensWall[0],
    pageWallMedianMs: median(pagesWall),
    nodeMBps: +nodeMbps.toFixed(1),
    browserMBps: +browserMbps.toFixed(1),
    ratio: +(browserMbps / nodeMbps).toFixed(2),
    uploadRounds: nodeSpeeds.map((n, i) => [+n.toFixed(1), +browserSpeeds[i]!.toFixed(1)]),
  }),
);
await browser.close();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
