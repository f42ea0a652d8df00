import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { logInAs } from './support/login';
import { startPortal, type RunningPortal } from './support/portal';
import { cancelJobsOf, schedulerMissing } from '../test-support/slurm-cluster';
import { idOf } from '../test-support/unix-users';

/** The demo cluster whose scheduler `npm run start:cluster` makes of this machine (CI starts its daemons). */
const CLUSTER = '11250';
const missing = schedulerMissing();
if (missing) console.warn(`SKIPPED the Job page and Dashboard on the real Slurm: ${missing}`);

/** What Slurm's accounting says of a job: its user and state. */
const accounted = (jobId: string) => {
  const out = execFileSync('sacct', ['-j', jobId, '-X', '-n', '-P', '-o', 'User,State'], { stdio: 'pipe' })
    .toString()
    .trim();
  const [user = '', state = ''] = out.split('\n')[0]?.split('|') ?? [];
  return { user, state };
};

/** Replaces the script editor's text (CodeMirror) as a person would: select all, paste. */
async function typeScript(page: Page, script: string) {
  const editor = page.locator('[data-testid="job-script"] .cm-content');
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // As a paste: typed key by key, the editor's completion popup may take an Enter.
  await page.keyboard.insertText(`${script}\n`);
}

/**
 * The Job page and the Dashboard in the browser against the real Slurm of `npm run start:cluster` (issue 22 §5):
 * the all-in-one in unix mode with the scheduler's cluster mounted, a job submitted from the form runs as demo,
 * the running list refreshes itself and cancels after a confirmation, the Dashboard's widgets show the cluster's
 * jobs, partitions and the storage; both languages, axe-clean, screenshots to look at.
 */
describe.skipIf(missing !== null)('the Job page and the Dashboard on the real Slurm', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    // Users must be able to walk down to the other clusters' homes under the data folder (0711).
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-jobs-'));
    fs.chmodSync(dataDir, 0o711);
    portal = await startPortal({
      EFILE_USER_MODE: 'unix',
      JOBS_CLUSTER_ID: CLUSTER,
      JOBS_POLL_INTERVAL_S: '1',
      DATA_DIR: dataDir,
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    cancelJobsOf(['demo']);
    await browser?.close();
    await portal?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const language of ['zh-CN', 'en-US'] as const) {
    const zh = language === 'zh-CN';

    it(`submits from the form, runs as demo, lists and cancels it (${language})`, async () => {
      // The Job page first, before any E-File call: the job service makes the all-in-one's demo home too (a real
      // cluster's homes exist; docs/OPERATIONS.md), so its working directory and templates are there.
      const { ctx, page, shot, errors } = await logInAs(browser, portal.url, 'demo', {
        language,
        at: `/jobs?cluster=${CLUSTER}&tab=submit`,
      });
      const form = page.getByTestId('jobs-form');
      await form.waitFor();
      const name = `e2e-${language}-${Date.now() % 100000}`;
      await form.getByLabel(zh ? '作业名称' : 'Job name', { exact: true }).fill(name);
      await typeScript(page, '#!/bin/bash\necho "ran as $(id -u)"\nsleep 300');
      // Saved as a template, the name changed, the template loaded back: the list names the templates only, the
      // chosen one is read then (a list of whole templates let one user stall the service).
      const jobName = form.getByLabel(zh ? '作业名称' : 'Job name', { exact: true });
      await page.getByTestId('jobs-template-save').click();
      await page.getByTestId('jobs-template-name').fill(`tpl-${language}`);
      // The button in one language, Enter in the name field in the other: both save.
      if (zh) await page.locator('.ant-modal .ant-btn-primary').click();
      else await page.getByTestId('jobs-template-name').press('Enter');
      await page.getByTestId('jobs-template-name').waitFor({ state: 'detached' });
      await jobName.fill('changed');
      await page.getByTestId('jobs-template-select').click();
      await page.locator('.ant-select-item-option', { hasText: `tpl-${language}` }).click();
      await expect.poll(() => jobName.inputValue()).toBe(name);
      await shot(`jobs-submit-${language}`);
      await page.getByTestId('jobs-submit-button').click();

      // The page goes to the running list with the new job's detail open; the job is in Slurm as demo's.
      const detail = page.getByTestId('job-detail');
      await detail.waitFor();
      const jobId = new URL(page.url()).searchParams.get('job') ?? '';
      expect(jobId).toMatch(/^\d+$/);
      await expect.poll(() => accounted(jobId).user, { timeout: 20_000 }).toBe('demo');
      // Running, its elapsed time counts on every second between the detail's readings (5 s apart): over 4 s, at
      // least three different values (the readings alone would give two at most).
      await expect
        .poll(() => detail.locator('[data-state]').first().getAttribute('data-state'), { timeout: 30_000 })
        .toBe('RUNNING');
      const seen = new Set<string>();
      for (let i = 0; i < 16; i++) {
        seen.add((await detail.getByTestId('job-elapsed').textContent()) ?? '');
        await page.waitForTimeout(250);
      }
      expect(seen.size).toBeGreaterThanOrEqual(3);
      // Not ended yet: no end time and no exit code (Slurm's 0:0 of a running job is not one), a dash for each.
      const field = (label: string) => detail.locator('tr', { has: page.locator('th', { hasText: label }) });
      expect(
        await field(zh ? '结束时间' : 'Ended')
          .locator('td')
          .innerText(),
      ).toBe('—');
      expect(
        await field(zh ? '退出码' : 'Exit code')
          .locator('td')
          .innerText(),
      ).toBe('—');
      await shot(`jobs-detail-${language}`);
      const axeDetail = formatViolations(`job-detail-${language}`, await axeViolations(page));
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'hidden' });

      // The running list shows it without a reload, then cancels it after a confirmation.
      const row = page.getByTestId('jobs-active').locator('tr', { hasText: name });
      await row.waitFor({ timeout: 20_000 });
      await expect
        .poll(async () => row.textContent(), { timeout: 30_000 })
        .toContain(zh ? '运行' : 'Running');
      await shot(`jobs-active-${language}`);
      // Its output, written by the job itself into demo's home, says demo's uid; the file is demo's.
      const out = `/public/home/demo/slurm-${jobId}.out`;
      await expect
        .poll(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8'), { timeout: 20_000 })
        .toContain(`ran as ${idOf('demo')}`);
      expect(fs.statSync(out).uid).toBe(idOf('demo'));
      fs.rmSync(out, { force: true });
      const axe = formatViolations(`jobs-${language}`, await axeViolations(page));
      await row.getByRole('checkbox').check();
      // One job selected, in the singular.
      expect(await page.getByTestId('jobs-active').innerText()).toContain(
        zh ? '已选 1 个作业' : '1 job selected',
      );
      await page.getByTestId('jobs-cancel').click();
      expect(await page.getByRole('dialog').innerText()).toContain(
        zh ? '确定取消 1 个作业？' : 'Cancel 1 job?',
      );
      await page
        .getByRole('dialog')
        .getByRole('button', { name: zh ? '确 定' : 'Yes' })
        .or(page.getByRole('dialog').getByRole('button', { name: zh ? '确定' : 'Yes', exact: true }))
        .first()
        .click();
      await expect.poll(() => accounted(jobId).state, { timeout: 30_000 }).toMatch(/^CANCELLED/);
      await expect.poll(async () => row.count(), { timeout: 20_000 }).toBe(0);
      expect(axeDetail + axe).toBe('');
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it(`runs an application of the application centre from its ready job (${language})`, async () => {
      const appId = async (keyword: string) => {
        const res = await fetch(`${portal.url}/app-center/app/list`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ keyword }),
        });
        const body = (await res.json()) as { data: { list: Array<{ id: number; nameEn: string }> } };
        return body.data.list.find((a) => a.nameEn === keyword)!.id;
      };
      const python = await appId('Python 3 batch job');
      const { ctx, page, shot, errors } = await logInAs(browser, portal.url, 'demo', {
        language,
        at: `/full-site/${python}`,
      });
      // The detail page offers its ready job, with the resources it suggests; an application without one does not.
      const run = page.getByTestId('app-run');
      await run.waitFor();
      expect(await run.textContent()).toBe(zh ? '运行此应用' : 'Run this application');
      expect(await page.getByTestId('app-run-card').textContent()).toContain(zh ? '1 个节点' : 'nodes: 1');
      await page.locator('.hpc-markdown h1').first().waitFor();
      await shot(`app-run-detail-${language}`);
      const axeDetail = formatViolations(`app-run-detail-${language}`, await axeViolations(page));
      await run.click();

      // The Job page's Submit tab, its form filled with the application's job.
      await page.waitForURL((u) => u.pathname === '/jobs' && u.searchParams.get('app') === String(python));
      const form = page.getByTestId('jobs-form');
      await form.waitFor();
      await expect
        .poll(() => form.getByLabel(zh ? '作业名称' : 'Job name', { exact: true }).inputValue())
        .toBe('python-pi');
      expect(await form.getByLabel(zh ? '最长运行时间（分钟）' : 'Time limit (minutes)').inputValue()).toBe(
        '10',
      );
      expect(await page.getByTestId('jobs-draft-from').textContent()).toContain(
        zh ? '来自应用 Python 3 批处理作业' : 'From the application Python 3 batch job',
      );
      await expect
        .poll(() => page.locator('[data-testid="job-script"] .cm-content').textContent())
        .toContain('pi ~');
      await shot(`app-run-form-${language}`);
      // The script's text itself is left out: its syntax colours are the editor's dark theme's (one-dark's comment
      // grey is 3.9:1), as in E-File's editor; the editor's name, focus and line numbers are checked.
      const axeForm = formatViolations(
        `app-run-form-${language}`,
        await axeViolations(page, { exclude: ['.cm-line'] }),
      );

      // Submitted as it is, it runs on the real Slurm as demo and prints its estimate into demo's home.
      await page.getByTestId('jobs-submit-button').click();
      await page.getByTestId('job-detail').waitFor();
      const jobId = new URL(page.url()).searchParams.get('job') ?? '';
      expect(jobId).toMatch(/^\d+$/);
      expect(new URL(page.url()).searchParams.get('app')).toBeNull();
      await expect.poll(() => accounted(jobId).user, { timeout: 20_000 }).toBe('demo');
      const out = `/public/home/demo/slurm-${jobId}.out`;
      await expect
        .poll(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8'), { timeout: 60_000 })
        .toMatch(/pi ~ 3\.\d+/);
      expect(fs.statSync(out).uid).toBe(idOf('demo'));
      fs.rmSync(out, { force: true });

      // On a centre without a scheduler the same address shows the page's plain "no scheduler" state.
      await page.goto(`/jobs?cluster=11251&tab=submit&app=${python}`);
      await page.getByTestId('jobs-no-scheduler').waitFor();
      await shot(`app-run-no-scheduler-${language}`);
      // JupyterLab has no ready job: no button.
      await page.goto(`/full-site/${await appId('JupyterLab')}`);
      await page.locator('.hpc-detail-side .ant-card').first().waitFor();
      expect(await page.getByTestId('app-run').count()).toBe(0);
      expect(axeDetail + axeForm).toBe('');
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it(`shows the cluster's jobs, partitions and the storage on the Dashboard, each widget alone (${language})`, async () => {
      // A job of demo's, so that the job widget has something to count.
      execFileSync('su', ['-s', '/bin/sh', '-c', 'sbatch --hold -J dash-held --wrap "sleep 60"', 'demo'], {
        cwd: '/tmp',
        stdio: 'pipe',
      });
      const { ctx, page, shot, errors } = await logInAs(browser, portal.url, 'demo', {
        language,
        at: '/dashboard',
      });
      await page.getByTestId('dash-storage-used').first().waitFor({ timeout: 30_000 });
      // The scheduler's cluster shows its partitions (normal and short of the project's slurm.conf).
      await expect
        .poll(async () => page.locator('.hpc-dash').textContent(), { timeout: 20_000 })
        .toMatch(/normal[\s\S]*short|short[\s\S]*normal/);
      // The clusters without a scheduler say so, they are not errors; nothing failed. Each says it once, in one
      // card: only the scheduler's cluster has a partitions card.
      expect(await page.getByTestId('widget-error').count()).toBe(0);
      await page.getByTestId('jobs-no-scheduler').first().waitFor();
      const noScheduler = await page.getByTestId('jobs-no-scheduler').count();
      expect(noScheduler).toBeGreaterThan(0);
      expect(await page.locator('[data-testid^="dash-partitions-"]').count()).toBe(1);
      expect(await page.locator('[data-testid^="dash-jobs-"]').count()).toBe(noScheduler + 1);
      // My accounts: the low balance of the demo's Kunshan account and its alert in the card, nothing of it out of
      // sight to the side (a table there showed the names and hid balance, status and expiry behind a scroll).
      const accounts = page.getByTestId('dash-accounts');
      // Written as the alert bar writes money, in both languages: ¥88.50 (en-US's own sign for yuan is CN¥).
      await expect.poll(() => accounts.textContent()).toContain('¥88.50');
      expect(await accounts.textContent()).not.toContain('CN¥');
      // Each account's end as a date in the language's words, not a time of day to the second.
      const accountsText = (await accounts.textContent()) ?? '';
      expect(accountsText).toMatch(
        language === 'zh-CN' ? /\d{4}年\d{1,2}月\d{1,2}日到期/ : /Expires [A-Z][a-z]{2} \d{1,2}, \d{4}/,
      );
      expect(accountsText).not.toMatch(/\d{1,2}:\d{2}:\d{2}/);
      const low = accounts.getByText(language === 'zh-CN' ? '余额不足 100 元' : 'Balance at most 100 yuan');
      const card = (await accounts.boundingBox())!;
      const tag = (await low.boundingBox())!;
      expect(tag.x + tag.width).toBeLessThanOrEqual(card.x + card.width);
      await shot(`dashboard-${language}`);
      expect(formatViolations(`dashboard-${language}`, await axeViolations(page))).toBe('');
      expect(errors).toEqual([]);
      await ctx.close();
      cancelJobsOf(['demo']);
    });

    it(`leaves a centre where the account is deactivated to the alert bar: no widget, no toast (${language})`, async () => {
      const { ctx, page, shot, errors } = await logInAs(browser, portal.url, 'wangwu', {
        language,
        at: '/dashboard',
      });
      await page.getByTestId('dash-accounts').waitFor();
      await page.waitForLoadState('networkidle');
      // wangwu's account at Hefei (11250) is deactivated: every call there would fail with 1007 and a toast.
      expect(await page.locator('[data-testid$="-11250"]').count()).toBe(0);
      expect(await page.getByTestId('widget-error').count()).toBe(0);
      expect(await page.locator('.ant-message-notice').count()).toBe(0);
      await shot(`dashboard-deactivated-${language}`);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }
});
