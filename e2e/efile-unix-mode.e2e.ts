import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshotter } from './support/browser';
import { logInToEfile, message, nameLink, select } from './support/efile-page';
import { startPortal, type RunningPortal } from './support/portal';
import { createUsers, idOf, isRoot, removeUsers } from '../test-support/unix-users';

const HOME = 'public/home/demo';
// The demo login's cluster user is `demo`: the test makes that system user when the machine has none, and removes
// only one it made (a real `demo`, e.g. of `npm run start:cluster`, is used and kept).
if (!isRoot)
  console.warn('SKIPPED efile-unix-mode e2e: it creates real users and needs root (CI runs as root)');

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/**
 * Upload, download and share in the browser against the all-in-one in unix mode (issue 10 §3): the portal runs as
 * root with EFILE_USER_MODE=unix, the demo login's cluster user `demo` is a real system user made here, and every
 * file the browser makes is owned by that user on disk.
 */
describe.skipIf(!isRoot)('E-File in unix mode, in the browser', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let dataDir: string;
  let work: string;
  let uid: number;
  const host = (p: string) => path.join(dataDir, 'clusters', '11250', p);

  beforeAll(async () => {
    createUsers(['demo']);
    uid = idOf('demo');
    // Users must be able to walk down to their homes: a data folder of our own that others may search (0711).
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-unix-'));
    fs.chmodSync(dataDir, 0o711);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-unix-work-'));
    portal = await startPortal({ EFILE_USER_MODE: 'unix', DATA_DIR: dataDir });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    removeUsers(['demo']);
    for (const d of [dataDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('uploads, downloads and shares as the real user; the files on disk are theirs', async () => {
    const { page, errors, shot } = await logInToEfile(browser, portal.url);
    // The demo home was made for the user on first sight.
    expect(fs.statSync(host(HOME)).uid).toBe(uid);
    expect(fs.statSync(host(`${HOME}/README.md`)).uid).toBe(uid);

    const data = crypto.randomBytes(5 * 1024 * 1024 + 123);
    const src = path.join(work, 'unix-up.bin');
    fs.writeFileSync(src, data);
    await page.getByTestId('efile-input-files').setInputFiles(src);
    const status = page.getByTestId('efile-upload-status').first();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('success');
    await nameLink(page, 'unix-up.bin').waitFor();
    const st = fs.statSync(host(`${HOME}/unix-up.bin`));
    expect([st.uid, st.gid]).toEqual([uid, Number(execFileSync('id', ['-g', 'demo']).toString().trim())]);
    expect(sha(fs.readFileSync(host(`${HOME}/unix-up.bin`)))).toBe(sha(data));
    await shot('efile-unix-uploaded');

    await select(page, 'unix-up.bin');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('efile-action-download').click(),
    ]);
    expect(sha(fs.readFileSync(await download.path()))).toBe(sha(data));

    await page.getByTestId('efile-action-share').click();
    await page.getByTestId('efile-share-days').fill('2');
    await page.getByTestId('efile-share-open').click();
    const link = (await page.getByTestId('efile-share-link').textContent())!.trim();
    const code = (await page.getByTestId('efile-share-code').textContent())!.trim();
    const visitor = await newContext(browser, portal.url, { acceptDownloads: true });
    const v = await visitor.newPage();
    await v.goto(link);
    await v.getByTestId('share-code').fill(code);
    await v.getByTestId('share-submit').click();
    // A shared file: its name and one download button (read by the owner's worker).
    await v.locator('.share-single').getByText('unix-up.bin').waitFor();
    await screenshotter(v)('efile-unix-share-recipient');
    const [shared] = await Promise.all([
      v.waitForEvent('download'),
      v.locator('.share-single').getByRole('button').click(),
    ]);
    expect(sha(fs.readFileSync(await shared.path()))).toBe(sha(data));
    await visitor.close();

    await page.getByTestId('efile-share-close').click();
    await message(page, '分享已关闭');
    expect(errors).toEqual([]);
  });
});
