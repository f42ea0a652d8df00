import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { message, nameLink, select } from './support/efile-page';
import { logInAs } from './support/login';
import { portalUnderTest, type RunningPortal } from './support/portal';
import { slowLink, type SlowLink } from './support/slow-link';

const HOME = 'public/home/demo';

/**
 * Defects of issue 13 §1 in E-File that a new user met: an upload deleted before its first chunk arrived, a centre
 * without an enabled file service, and errors shown as an empty folder.
 */
describe('E-File defects of issue 13', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let work: string;
  const links: SlowLink[] = [];
  const host = (...p: string[]) => path.join(portal.dataDir, 'clusters', '11250', ...p);

  beforeAll(async () => {
    portal = await portalUnderTest();
    browser = await launchBrowser();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-efile-defects-'));
  });
  afterAll(async () => {
    for (const l of links) await l.close();
    await browser?.close();
    await portal?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('deleting an upload whose first chunk is still on its way removes its partial file', async () => {
    // 64 KB/s up: the first 1 MiB chunk needs ~16 s, so the row is deleted while it is still being sent.
    const link = await slowLink(portal.url, 64 * 1024);
    links.push(link);
    const { page, ctx, shot } = await logInAs(browser, link.url, 'demo', { at: '/efile' });
    await page.getByTestId('efile-name').first().waitFor();
    const file = path.join(work, 'slow.bin');
    fs.writeFileSync(file, crypto.randomBytes(4 * 1024 * 1024));
    await page.getByTestId('efile-input-files').setInputFiles(file);

    const partials = () =>
      fs.readdirSync(host(HOME)).filter((n) => n.includes('slow.bin') && n.endsWith('.efile-part'));
    // The server has begun the upload (its hidden partial file exists), no chunk has finished.
    await expect.poll(partials, { timeout: 30_000 }).toHaveLength(1);
    const row = page.locator('.efile-upload-panel tr.ant-table-row').filter({ hasText: 'slow.bin' });
    // Not finished: "waiting" until a chunk is through, whatever the browser has sent of the first one.
    expect(['waiting', 'play']).toContain(
      await row.getByTestId('efile-upload-status').getAttribute('data-status'),
    );
    await shot('efile-upload-slow-zh');

    const cleanup = page.waitForResponse((r) => r.url().includes('/upload/deletePartial.action'));
    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await message(page, '已删除');
    expect((await cleanup).ok()).toBe(true);
    expect(partials()).toEqual([]);
    expect(fs.existsSync(host(HOME, 'slow.bin'))).toBe(false);
    await ctx.close();
  });

  it.each([
    ['zh-CN', '无锡中心（停用）已停用或暂无可用的文件服务'],
    ['en-US', 'Wuxi Center (disabled) is disabled or has no available file service'],
  ] as const)(
    'shows a centre without an enabled file service as the alert alone, its actions disabled (%s)',
    async (language, alertText) => {
      const { page, ctx, shot } = await logInAs(browser, portal.url, 'lisi', { language, at: '/efile' });
      // lisi starts on Kunshan, whose folder has entries and a count under the table.
      await page.getByTestId('efile-pagination').waitFor();
      await page.getByTestId('efile-cluster').click();
      await page
        .locator('.ant-select-item-option')
        .filter({ hasText: /无锡|Wuxi/ })
        .click();

      const alert = page.getByTestId('efile-unavailable');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(alertText);
      // Nothing of the previous centre stays: no count, no table, no path.
      expect(await page.getByTestId('efile-pagination').count()).toBe(0);
      expect(await page.getByTestId('efile-table').count()).toBe(0);
      // What cannot work there is disabled; the centre can still be changed.
      for (const id of ['upload-button', 'create-button', 'action-download', 'action-delete', 'home']) {
        expect(await page.getByTestId(`efile-${id}`).isDisabled(), id).toBe(true);
      }
      expect(await page.getByTestId('efile-cluster').locator('input').isDisabled()).toBe(false);
      await shot(`efile-no-service-${language}`);
      await ctx.close();
    },
  );

  it.each([
    ['zh-CN', '用户已冻结：账号已停用'],
    ['en-US', 'User frozen: the account is deactivated'],
  ] as const)(
    'shows the error, not an empty folder, for a deactivated account (%s)',
    async (language, text) => {
      const { page, ctx, shot } = await logInAs(browser, portal.url, 'wangwu', { language, at: '/efile' });
      const state = page.getByTestId('efile-error');
      await state.waitFor();
      expect(await state.textContent()).toContain(text);
      expect(
        await page.getByText(language === 'zh-CN' ? '此文件夹为空' : 'This folder is empty').count(),
      ).toBe(0);
      await shot(`efile-error-1007-${language}`);
      await ctx.close();
    },
  );

  it.each([
    ['zh-CN', '目录不存在', '返回家目录'],
    ['en-US', 'Directory does not exist', 'Back to the home directory'],
  ] as const)('shows a missing folder as an error with the way home (%s)', async (language, text, home) => {
    const { page, ctx, shot } = await logInAs(browser, portal.url, 'demo', {
      language,
      at: `/efile?cluster=11250&path=${encodeURIComponent('/public/home/demo/no-such-folder')}`,
    });
    const state = page.getByTestId('efile-error');
    await state.waitFor();
    expect(await state.textContent()).toContain(text);
    await shot(`efile-error-missing-${language}`);
    await state.getByRole('button', { name: home }).click();
    await page.waitForURL((u) => u.searchParams.get('path') === '/public/home/demo');
    await page.getByTestId('efile-name').first().waitFor();
    expect(await page.getByTestId('efile-error').count()).toBe(0);
    await ctx.close();
  });

  it('lets the Linux upload command print the portal’s message when it is refused (same name)', async () => {
    const { page, ctx } = await logInAs(browser, portal.url, 'demo', { at: '/efile' });
    await page.getByTestId('efile-name').first().waitFor();
    fs.mkdirSync(host(HOME, 'linux-dup'));
    fs.writeFileSync(host(HOME, 'linux-dup', 'same.txt'), 'already here');
    await page.getByTestId('efile-refresh').click();
    await nameLink(page, 'linux-dup').waitFor();
    await select(page, 'linux-dup');
    await page.getByTestId('efile-action-share').click();
    await page.getByRole('tab', { name: 'Linux 命令' }).click();
    const linux = page.getByTestId('efile-linux');
    await linux.locator('input').fill(`/${HOME}/linux-dup`);
    await linux.getByRole('button', { name: '生成上传命令' }).click();
    const command = (await linux.locator('.hpc-command code').first().textContent())!;

    const local = path.join(work, 'same.txt');
    fs.writeFileSync(local, 'a different file of the same name');
    const run = spawnSync('/bin/bash', ['-c', command.replace('FILE', `'${local}'`)], {
      cwd: work,
      env: { ...process.env, PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
    });
    // The command still fails (a script can tell), and the user reads why, not only "curl: (22) … 409".
    expect(run.status).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('A file with the same name exists');
    expect(fs.readFileSync(host(HOME, 'linux-dup', 'same.txt'), 'utf8')).toBe('already here');
    await ctx.close();
  });
});
