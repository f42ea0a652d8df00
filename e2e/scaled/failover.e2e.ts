/**
 * Issue 12 §2 point 9, in Chromium on the scaled-out layout: the efile instance a browser upload goes to is stopped
 * in the middle of it; the page finds the cluster's other instance (spec §4 failover) and the upload completes with
 * the same sha256. Skipped loudly without TEST_DATABASE_URL, TEST_REDIS_URL and redis-server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { logInToEfile, nameLink } from '../support/efile-page';
import {
  announceSkip,
  hostPath,
  scaledSkipReason,
  sha256,
  startScaledForTest,
  until,
  type ScaledRun,
} from '../../test-support/scaled';

const skip = announceSkip('e2e/scaled/failover.e2e.ts', scaledSkipReason());

describe.skipIf(skip)(
  'scaled out, in Chromium: an efile instance stops mid-upload',
  { timeout: 600_000 },
  () => {
    let run: ScaledRun;
    let browser: Browser;
    let work: string;

    beforeAll(async () => {
      run = await startScaledForTest({ clusters: ['11250'] });
      browser = await launchBrowser();
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'scaled-failover-'));
    }, 300_000);
    afterAll(async () => {
      await browser?.close();
      await run?.stop();
      if (work) fs.rmSync(work, { recursive: true, force: true });
    }, 120_000);

    it('fails over to the other instance and completes with an equal sha256', async () => {
      const { page, shot, ctx } = await logInToEfile(browser, run.layout.url, 'en-US');
      const instances = run.layout.efiles['11250']!;
      // Which instance each chunk POST went to, and when the first one was stored.
      const posts = new Map<string, number>();
      page.on('requestfinished', (req) => {
        const m = /\/efile\/11250\/(\d)\/chunkUpload\.action$/.exec(new URL(req.url()).pathname);
        if (m && req.method() === 'POST') posts.set(m[1]!, (posts.get(m[1]!) ?? 0) + 1);
      });
      const file = path.join(work, 'failover.bin');
      fs.writeFileSync(file, crypto.randomBytes(64 * 1024 * 1024 + 321));
      await page.getByTestId('efile-input-files').setInputFiles(file);
      const status = page.getByTestId('efile-upload-status').first();

      // The first instance to get chunks is the user's (round-robin by user id); stop it once it stored a few.
      const first = await until(async () => [...posts].find(([, n]) => n >= 3)?.[0]);
      const victim = instances.find((p) => String(p.n) === first)!;
      await victim.stop(3_000);
      await shot('scaled-failover-after-stop');

      await expect.poll(() => status.getAttribute('data-status'), { timeout: 240_000 }).toBe('success');
      // The folder on screen, now listed by the other instance, shows the new file.
      await nameLink(page, 'failover.bin').waitFor();
      await shot('scaled-failover-done');
      const other = instances.find((p) => p !== victim)!;
      expect(posts.get(String(other.n)) ?? 0).toBeGreaterThan(0);
      const home = '/public/home/demo';
      expect(sha256(fs.readFileSync(hostPath(run.layout, '11250', `${home}/failover.bin`)))).toBe(
        sha256(fs.readFileSync(file)),
      );
      // Nothing half-written is left beside it.
      expect(
        fs.readdirSync(hostPath(run.layout, '11250', home)).filter((n) => n.includes('failover.bin')),
      ).toEqual(['failover.bin']);
      await victim.start().ready();
      await ctx.close();
    });
  },
);
