import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { askFastransLogin, logInToEfile, useEfileEnv } from './support/efile-page';
import { clickMenuItem, screenshotter } from './support/browser';
import { requestTimeHeaders } from '@hpc/api-client';
import { DEMO_PASSWORD } from './support/login';

/**
 * Ending a session reaches an E-File tab that is open (issue 25 §1.3, §1.4): its per-cluster token was issued for the
 * session, and efile refuses it once the session has ended, so the tab's next action goes to the login page, as
 * for a timed-out session (spec §2), and changes nothing.
 */
describe('an ended session stops an open E-File tab', () => {
  const env = useEfileEnv('revocation');
  const host = (p: string) => path.join(env.portal.dataDir, 'clusters', '11250', 'public/home/demo', p);

  /** Asks E-File for a new folder `name` (the create menu, then the name dialog). */
  const newFolder = async (page: Page, name: string) => {
    // The menu opens on hover, which a page behind another (a second tab, another window) does not get.
    await page.bringToFront();
    await page.getByTestId('efile-name').first().waitFor();
    const item = page.locator('.ant-dropdown-menu-item').filter({ hasText: /(新建|New) ?(文件夹|folder)$/ });
    // Hovered again until the menu is there (it may open while the list is still being laid out).
    await expect
      .poll(async () => {
        await page.getByTestId('efile-create-button').hover();
        return item.isVisible();
      })
      .toBe(true);
    await clickMenuItem(item);
    await page.getByTestId('efile-name-input').fill(name);
    await page.getByTestId('efile-name-input').press('Enter');
  };

  it('logout in another tab: the first tab’s next action goes to the login page and creates nothing', async () => {
    const { ctx, page } = await logInToEfile(env.browser, env.portal.url, 'zh-CN');
    const other = await ctx.newPage();
    await other.goto('/main-page');
    await other.getByRole('button', { name: '用户菜单' }).click();
    await clickMenuItem(other.getByRole('menuitem', { name: '退出登录' }));
    await other.waitForURL((u) => u.pathname === '/login');

    await newFolder(page, 'after-logout');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toMatch(/^\/efile/);
    expect(fs.existsSync(host('after-logout'))).toBe(false);
    await ctx.close();
  });

  for (const language of ['zh-CN', 'en-US'] as const) {
    it(`the user centre signs out every other session, and another browser’s E-File at once (${language})`, async () => {
      const elsewhere = await logInToEfile(env.browser, env.portal.url, language);
      const here = await logInToEfile(env.browser, env.portal.url, language, '/efile');
      // A script's session too: it is named by its program, not "unknown on unknown".
      const script = await fetch(`${env.portal.url}/api/auth/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'curl/8.5.0',
          ...(await requestTimeHeaders()),
        },
        body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
      });
      expect(script.status, await script.clone().text()).toBe(200);
      const shot = screenshotter(here.page);
      await here.page.goto('/user-center');
      const sessions = here.page.getByTestId('uc-sessions');
      await sessions.locator('tr.ant-table-row').nth(2).waitFor();
      const agents = (await sessions.locator('tr.ant-table-row td:first-child').allTextContents()).map((a) =>
        a.trim(),
      );
      expect(agents).toContain('curl');
      expect(agents.join(' ')).not.toMatch(/未知|unknown/);
      // This browser is marked, and has no sign-out of its own in the list.
      const current = sessions.locator('tr.ant-table-row').filter({ has: here.page.locator('.ant-tag') });
      expect(await current.count()).toBe(1);
      expect(await current.getByTestId('uc-session-end').count()).toBe(0);
      await sessions.scrollIntoViewIfNeeded();
      await shot(`user-centre-sessions-${language}`);

      await sessions
        .getByRole('button', { name: language === 'zh-CN' ? '退出其他所有会话' : 'Sign out everywhere else' })
        .click();
      await here.page.locator('.ant-popconfirm .ant-btn-primary').click();
      await expect.poll(() => sessions.locator('tr.ant-table-row').count(), { timeout: 15_000 }).toBe(1);
      await shot(`user-centre-signed-out-${language}`);

      await newFolder(elsewhere.page, `after-sign-out-${language}`);
      await elsewhere.page.waitForURL((u) => u.pathname === '/login');
      expect(fs.existsSync(host(`after-sign-out-${language}`))).toBe(false);
      // The browser that asked stays signed in, on the portal and in E-File.
      await here.page.goto('/efile');
      await newFolder(here.page, `still-here-${language}`);
      await expect.poll(() => fs.existsSync(host(`still-here-${language}`))).toBe(true);
      await elsewhere.ctx.close();
      await here.ctx.close();
    });
  }

  for (const language of ['zh-CN', 'en-US'] as const) {
    it(`the user centre revokes the fast-transfer client key, and the day tokens given to clients with it (${language})`, async () => {
      const { ctx, page } = await logInToEfile(env.browser, env.portal.url, language, '/efile');
      const shot = screenshotter(page);
      // A fast-transfer login asked for as the page asks for one before it hands a client its day token.
      const { token } = (await askFastransLogin(page)).data;
      const list = async () =>
        (
          (await (
            await fetch(`${env.portal.url}/efile/11250/list.action?path=/public/home/demo`, {
              headers: { token },
            })
          ).json()) as { code: string }
        ).code;
      expect(await list()).toBe('0');
      await page.goto('/user-center');
      const tokens = page.getByTestId('uc-credentials').locator('tr.ant-table-row');
      await tokens.first().waitFor();
      const card = page.getByTestId('uc-client-key');
      await card.scrollIntoViewIfNeeded();
      await shot(`user-centre-client-key-${language}`);
      await card.getByTestId('uc-client-key-revoke').click();
      await page.locator('.ant-popconfirm .ant-btn-primary').click();
      const done = page.locator('.ant-message-notice').filter({
        hasText: language === 'zh-CN' ? '密钥已撤销' : 'Key revoked',
      });
      await done.waitFor();
      await card.locator('.ant-btn-loading').waitFor({ state: 'detached' });
      await shot(`user-centre-client-key-revoked-${language}`);
      // The day token is revoked with the key: off the list, and refused by the cluster's efile.
      await expect.poll(() => tokens.count(), { timeout: 15_000 }).toBe(0);
      expect(await list()).not.toBe('0');
      await ctx.close();
    });
  }
});
