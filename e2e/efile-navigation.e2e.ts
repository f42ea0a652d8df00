import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseOption, clickMenuItem, newContext, screenshotter } from './support/browser';
import { efileHelpers, message, nameLink, rowOf, select, useEfileEnv } from './support/efile-page';
import { logInAs } from './support/login';

const HOME = '/public/home/demo';

/**
 * Finding one's way in E-File: the context menu and keys, paging, sorting, columns, search and fullscreen, the
 * places (home directories of each centre), My shares, and what the list shows instead of rows when it cannot list
 * (a centre without a file service, a deactivated account, a missing folder).
 */
describe('E-File navigation in the browser', () => {
  const env = useEfileEnv('efile-navigation');
  const { host, loggedIn, refresh } = efileHelpers(env);
  /** Keys go to the list only once no dialog is on screen (closing ones animate out first). */
  // expect.poll gives up after 1 s by default: far too soon for a reload on a loaded CI machine.
  const noDialog = (page: Page) =>
    expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout: 15_000 }).toBe(0);
  const at = (page: Page, p: string) => page.waitForURL((u) => u.searchParams.get('path') === p);

  it('works by the context menu and the keys F2, Delete, Enter, Backspace and Ctrl+A', async () => {
    const { page, errors, shot } = await loggedIn();
    for (const n of ['k1.txt', 'k2.txt', 'k3.txt']) fs.writeFileSync(host(`${HOME}/${n}`), n);
    await refresh(page);
    await nameLink(page, 'k3.txt').waitFor();

    // Right-click a row: it is selected and the menu offers the toolbar's actions; rename from there.
    await rowOf(page, 'k1.txt').locator('td').nth(3).click({ button: 'right' });
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
    await menu.waitFor();
    expect(await menu.locator('.ant-dropdown-menu-item').allTextContents()).toEqual([
      '打开',
      '下载',
      '重命名',
      '复制',
      '移动',
      '分享',
      '删除',
    ]);
    await expect
      .poll(() => rowOf(page, 'k1.txt').evaluate((tr) => tr.classList.contains('efile-row-selected')))
      .toBe(true);
    await shot('efile-context-menu-zh');
    await clickMenuItem(menu.locator('.ant-dropdown-menu-item').filter({ hasText: '重命名' }));
    await page.getByTestId('efile-name-input').fill('k1-renamed.txt');
    await page.getByTestId('efile-name-input').press('Enter');
    await nameLink(page, 'k1-renamed.txt').waitFor();
    expect(fs.readFileSync(host(`${HOME}/k1-renamed.txt`), 'utf8')).toBe('k1.txt');

    // Right-click, delete from the menu.
    await noDialog(page);
    await expect.poll(() => menu.count()).toBe(0);
    await rowOf(page, 'k3.txt').locator('td').nth(3).click({ button: 'right' });
    await clickMenuItem(menu.locator('.ant-dropdown-menu-item').filter({ hasText: '删除' }));
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await expect.poll(() => fs.existsSync(host(`${HOME}/k3.txt`))).toBe(false);

    // F2 renames the selected row.
    await noDialog(page);
    await rowOf(page, 'k2.txt').locator('td').nth(3).click();
    await page.keyboard.press('F2');
    await page.getByTestId('efile-name-input').fill('k2-f2.txt');
    await page.getByTestId('efile-name-input').press('Enter');
    await nameLink(page, 'k2-f2.txt').waitFor();

    // Delete asks, then deletes.
    await noDialog(page);
    await rowOf(page, 'k2-f2.txt').locator('td').nth(3).click();
    await page.keyboard.press('Delete');
    await page.locator('.ant-modal-confirm').filter({ hasText: 'k2-f2.txt' }).waitFor();
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    // The message of the menu's delete above may still be on screen: the file itself says when this one is done.
    await expect.poll(() => fs.existsSync(host(`${HOME}/k2-f2.txt`))).toBe(false);
    await message(page, '删除成功');

    // Enter opens the selected folder, Backspace goes back up.
    await noDialog(page);
    await rowOf(page, 'projects').locator('td').nth(3).click();
    await page.keyboard.press('Enter');
    await at(page, `${HOME}/projects`);
    await nameLink(page, 'demo').waitFor();
    await page.keyboard.press('Backspace');
    await at(page, HOME);

    // Ctrl+A selects every row of the page.
    await nameLink(page, 'projects').waitFor();
    await page.locator('.efile-table td').nth(3).click();
    await page.keyboard.press('Control+a');
    const rows = await page.locator('.efile-table tr.ant-table-row').count();
    await expect.poll(() => page.locator('.efile-table tr.efile-row-selected').count()).toBe(rows);
    expect(rows).toBeGreaterThan(5);
    expect(errors).toEqual([]);
  });

  it('goes to any folder of the path bar by its breadcrumb, by click or by keyboard (issue 25 §3.11)', async () => {
    fs.mkdirSync(host(`${HOME}/c1/c2/c3`), { recursive: true });
    fs.writeFileSync(host(`${HOME}/c1/c2/c3/deep.txt`), 'deep');
    const deep = `${HOME}/c1/c2/c3`;
    const { page, errors } = await loggedIn('zh-CN', `/efile?path=${encodeURIComponent(deep)}`);
    const crumbs = page.locator('.efile-breadcrumb');
    await at(page, deep);
    // Every folder above is a link; the current one is plain text.
    await crumbs.getByRole('link', { name: 'c2' }).waitFor();
    expect(await crumbs.getByRole('link', { name: 'c3' }).count()).toBe(0);
    await crumbs.getByRole('link', { name: 'c1' }).click();
    await at(page, `${HOME}/c1`);
    await page.goBack();
    await at(page, deep);
    const c2 = crumbs.getByRole('link', { name: 'c2' });
    await c2.focus();
    await page.keyboard.press('Enter');
    await at(page, `${HOME}/c1/c2`);
    await crumbs.getByRole('link', { name: HOME }).click();
    await at(page, HOME);
    expect(errors).toEqual([]);
  });

  it('shows small images as thumbnails in the list, and only icons for large ones (issue 25 §3.11)', async () => {
    const dir = `${HOME}/thumbs`;
    fs.mkdirSync(host(dir), { recursive: true });
    fs.copyFileSync(host(`${HOME}/pixel.png`), host(`${dir}/small.png`));
    // Over the thumbnail limit: a sparse file, never fetched for a picture.
    fs.writeFileSync(host(`${dir}/huge.png`), '');
    fs.truncateSync(host(`${dir}/huge.png`), 50 * 1024 * 1024);
    const { page, errors, shot } = await loggedIn('zh-CN', `/efile?path=${encodeURIComponent(dir)}`);
    const thumb = rowOf(page, 'small.png').locator('img.efile-thumb');
    await thumb.waitFor();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await rowOf(page, 'huge.png').locator('img').count()).toBe(0);
    await shot('efile-thumbnails');
    expect(errors).toEqual([]);
  });

  it('pages (sizes, jump, first and last), sorts by a column and back, hides a column for good, searches, goes fullscreen', async () => {
    // Logging in opens E-File, which creates the demo home; the folder is made after that.
    const { page, errors, shot } = await loggedIn('en-US');
    const dir = `${HOME}/paging`;
    fs.mkdirSync(host(dir));
    for (let i = 0; i < 45; i++)
      fs.writeFileSync(host(`${dir}/f${String(i).padStart(2, '0')}`), 'x'.repeat(i));
    await page.goto(`/efile?cluster=11250&path=${encodeURIComponent(dir)}`);
    const names = () => page.getByTestId('efile-name').allTextContents();
    const first = (name: string) =>
      expect.poll(async () => (await names())[0], { timeout: 15_000 }).toBe(name);
    const pager = page.getByTestId('efile-pagination');
    await first('f00');
    expect(await names()).toHaveLength(20);
    await expect.poll(() => pager.locator('.efile-total').textContent()).toBe('45 items');

    await pager.locator('.ant-pagination-next').click();
    await first('f20');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await pager.getByRole('button', { name: 'Last' }).click();
    await first('f40');
    expect(await names()).toHaveLength(5);
    await pager.getByRole('button', { name: 'First' }).click();
    await first('f00');

    await pager.locator('.ant-pagination-options-size-changer').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect
      .poll(() => options.allTextContents())
      .toEqual(['10 / page', '20 / page', '50 / page', '100 / page', '500 / page']);
    await options.filter({ hasText: /^10 \/ page$/ }).click();
    await expect.poll(async () => (await names()).length).toBe(10);
    const jumper = pager.locator('.ant-pagination-options-quick-jumper input');
    await jumper.fill('3');
    await jumper.press('Enter');
    await first('f20');
    // The address keeps the page: a reload (or a bookmark) comes back to it.
    await page.reload();
    await first('f20');
    expect(await names()).toHaveLength(10);

    // Size ascending, descending, then a third click returns to the name order (antd cancels the sort there).
    const sizeHeader = page.locator('.efile-table th').filter({ hasText: /^Size$/ });
    await sizeHeader.click();
    await first('f00');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('size');
    await sizeHeader.click();
    await first('f44');
    expect(new URL(page.url()).searchParams.get('order')).toBe('desc');
    await sizeHeader.click();
    await first('f00');
    expect(new URL(page.url()).searchParams.get('sort')).toBeNull();

    const ownerHeader = page.locator('.efile-table th').filter({ hasText: /^Owner$/ });
    await ownerHeader.waitFor();
    await page.getByRole('button', { name: 'Custom columns' }).click();
    await page.locator('.efile-columns-menu').getByText('Owner', { exact: true }).click();
    await ownerHeader.waitFor({ state: 'detached' });
    await page.reload();
    await first('f00');
    expect(await ownerHeader.count()).toBe(0);
    await page.getByRole('button', { name: 'Custom columns' }).click();
    await page.locator('.efile-columns-menu').getByText('Owner', { exact: true }).click();
    await ownerHeader.waitFor();

    await page.getByRole('searchbox', { name: 'Search in this folder' }).fill('f4');
    await page.getByRole('searchbox', { name: 'Search in this folder' }).press('Enter');
    await expect.poll(names).toEqual(['f40', 'f41', 'f42', 'f43', 'f44']);

    await page.getByRole('button', { name: 'Fullscreen', exact: true }).click();
    await page.locator('.efile.efile-fullscreen').waitFor();
    await shot('efile-paging-fullscreen-en');
    await page.getByRole('button', { name: 'Exit fullscreen' }).click();
    await page.locator('.efile.efile-fullscreen').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('has a home directory and a user home directory on each centre', async () => {
    const { page, shot } = await loggedIn();
    // The cluster home root (/public/home) is not granted to demo, so "home" is the home on the selected centre.
    await page.getByTestId('efile-home').click();
    await at(page, HOME);
    await page.getByTestId('efile-user-home').hover();
    const items = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item');
    await items.first().waitFor();
    expect(await items.allTextContents()).toEqual([
      `合肥先进计算中心：${HOME}`,
      expect.stringMatching(new RegExp(`：${HOME}$`)),
    ]);
    await shot('efile-user-home-zh');
    const listed = page.waitForResponse((r) => r.url().includes('/efile/11251/list.action'));
    await items.nth(1).click();
    await page.waitForURL((u) => u.searchParams.get('cluster') === '11251');
    await at(page, HOME);
    expect(new URL((await listed).url()).searchParams.get('path')).toBe(HOME);
    expect(fs.existsSync(host(`${HOME}/README.md`, '11251'))).toBe(true);
  });

  it('lists a share in My shares with path, link, code, times and status; closing it there refuses the link', async () => {
    const { page, shot, ctx } = await loggedIn();
    await select(page, 'analysis.py');
    await page.getByTestId('efile-action-share').click();
    await page.getByTestId('efile-share-days').fill('5');
    await page.getByTestId('efile-share-open').click();
    const link = (await page.getByTestId('efile-share-link').textContent())!.trim();
    const code = (await page.getByTestId('efile-share-code').textContent())!.trim();
    await page.locator('.ant-modal-footer .ant-btn').first().click();

    await page.getByTestId('efile-action-myShares').click();
    const row = page
      .getByTestId('efile-my-shares')
      .locator('tr.ant-table-row')
      .filter({ hasText: 'analysis.py' });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toBe(`${HOME}/analysis.py`);
    // The whole address, and a copy button for it and for the code that copies them whole.
    expect(cells[1]).toBe(link);
    expect(cells[2]).toBe(code);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.portal.url });
    for (const [cell, text] of [
      [1, link],
      [2, code],
    ] as const) {
      await row.locator('td').nth(cell).locator('.ant-typography-copy').click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    }
    const day = 24 * 3600 * 1000;
    // The one form of a moment across the portal: "2026年12月1日 23:40" (the share dialog, the user centre).
    const dayOf = (text: string) => {
      const m = /^(\d{4})年(\d{1,2})月(\d{1,2})日 \d{2}:\d{2}$/.exec(text);
      expect(m, text).not.toBeNull();
      return Date.UTC(Number(m![1]), Number(m![2]) - 1, Number(m![3]));
    };
    const [shared, ends] = [dayOf(cells[3]!), dayOf(cells[4]!)];
    expect(Math.round((ends - shared) / day)).toBe(5);
    expect(cells[5]).toBe('有效');
    await page.waitForTimeout(400); // the drawer slides in
    await shot('efile-my-shares-zh');

    // The recipient's page finds the cluster's efile through the portal's public call, then asks for the code.
    const visitor = await newContext(env.browser, env.portal.url);
    const v = await visitor.newPage();
    const lookup = v.waitForResponse((r) =>
      r.url().includes('/api/center/publicEfileUrls.action?clusterId=11250'),
    );
    await v.goto(link);
    expect(await (await lookup).json()).toMatchObject({ data: { urls: ['/efile/11250'] } });
    await v.getByTestId('share-code').fill(code);
    await v.getByTestId('share-submit').click();
    await v.getByText('analysis.py').waitFor();

    await row.getByRole('button', { name: '关闭分享' }).click();
    await message(page, '分享已关闭');
    await expect.poll(() => row.locator('td').nth(5).textContent()).toBe('已关闭');
    await v.goto(link);
    await v.getByTestId('share-refused').waitFor();
    // What it was, and the one way on (it had said only "file does not exist" for a mistyped link).
    expect(await v.getByTestId('share-refused').textContent()).toContain('请检查链接，或联系分享者重新分享');
    await v.goto(`${link.slice(0, -3)}zzz`);
    await v.getByTestId('share-refused').getByText('分享链接不存在').waitFor();
    await screenshotter(v)('efile-share-missing-zh');

    // A cluster without an enabled file service: the recipient is told so, in their language.
    await v.goto('/share/11252/abc');
    await v.getByTestId('share-unavailable').getByText('该链接所在计算中心的文件服务暂不可用').waitFor();
    await screenshotter(v)('efile-share-unavailable-zh');
    await visitor.close();
    await ctx.close();
  });

  it('shows the places, My shares and the unavailable share in English', async () => {
    const { page, ctx, shot } = await loggedIn('en-US');
    await page.getByTestId('efile-user-home').hover();
    const items = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item');
    await items.first().waitFor();
    expect(await items.first().textContent()).toBe(`Hefei Advanced Computing Center: ${HOME}`);
    await shot('efile-user-home-en');
    await page.mouse.move(700, 800);
    await expect.poll(() => items.count()).toBe(0);
    await page.getByTestId('efile-action-myShares').click();
    await page.getByTestId('efile-my-shares').getByText('Closed').first().waitFor();
    await page.waitForTimeout(400); // the drawer slides in
    await shot('efile-my-shares-en');
    await page.goto('/share/11252/abc');
    await page.getByText("The file service of this link's computing centre is not available").waitFor();
    await shot('efile-share-unavailable-en');
    await ctx.close();
  });

  it.each([
    ['zh-CN', '无锡中心（停用）已停用或暂无可用的文件服务'],
    ['en-US', 'Wuxi Center (disabled) is disabled or has no available file service'],
  ] as const)(
    'shows a centre without an enabled file service as the alert alone, its actions disabled (%s)',
    async (language, alertText) => {
      const { page, ctx, shot } = await logInAs(env.browser, env.portal.url, 'lisi', {
        language,
        at: '/efile',
      });
      // lisi starts on Hefei, whose folder has entries and a count under the table.
      await page.getByTestId('efile-pagination').waitFor();
      await chooseOption(page.getByTestId('efile-cluster'), language === 'zh-CN' ? '无锡' : 'Wuxi');

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
    ['zh-CN', '您在合肥先进计算中心的账户已停用'],
    ['en-US', 'Your account at Hefei Advanced Computing Center is deactivated'],
  ] as const)(
    'shows a deactivated account its notice once, in place of the folder, and disables what cannot work (%s)',
    async (language, notice) => {
      const { page, ctx, shot } = await logInAs(env.browser, env.portal.url, 'wangwu', {
        language,
        at: '/efile',
      });
      // Every call to the centre's efile but its health check would be refused with 1007: none is made.
      const refused: string[] = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith('/efile/11250/') && !u.pathname.endsWith('/check.action'))
          refused.push(u.pathname);
      });
      const state = page.getByTestId('efile-deactivated');
      await state.waitFor();
      expect(await state.textContent()).toContain(notice);
      await page.waitForLoadState('networkidle');
      // Once: no list error beside it, and no message on top of it.
      expect(await page.getByTestId('efile-error').count()).toBe(0);
      expect(await page.getByTestId('efile-table').count()).toBe(0);
      expect(await page.locator('.ant-message-notice').count()).toBe(0);
      expect(refused).toEqual([]);
      // Every action on the centre's files is disabled by its enabled-when; the centre can still be changed, the
      // upload list (of other centres) still opened.
      for (const id of [
        'upload-button',
        'create-button',
        'action-download',
        'action-rename',
        'action-copy',
        'action-move',
        'action-share',
        'action-delete',
        'home',
        'action-myShares',
      ]) {
        expect(await page.getByTestId(`efile-${id}`).isDisabled(), id).toBe(true);
      }
      // The upload list (of other centres) and the user's home on Kunshan, where the account is active, still work.
      expect(await page.getByTestId('efile-upload-list-button').isDisabled()).toBe(false);
      expect(await page.getByTestId('efile-user-home').isDisabled()).toBe(false);
      expect(await page.getByTestId('efile-cluster').locator('input').isDisabled()).toBe(false);
      // Nor do the keys act: Ctrl+A and Delete change nothing and say nothing.
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Delete');
      expect(await page.locator('.ant-modal-wrap:visible, .ant-message-notice').count()).toBe(0);
      await shot(`efile-deactivated-${language}`);
      // Jobs and E-Shell say the same, in place of a submit form and a "new session" that would only fail.
      await page.goto('/jobs');
      const jobs = page.getByTestId('jobs-deactivated');
      await jobs.waitFor();
      expect(await jobs.textContent()).toContain(notice);
      expect(await page.getByRole('tab').count()).toBe(0);
      await shot(`jobs-deactivated-${language}`);
      await page.goto('/eshell');
      const shell = page.getByTestId('eshell-deactivated');
      await shell.waitFor();
      expect(await shell.textContent()).toContain(notice);
      expect(await page.getByTestId('eshell-new').isDisabled()).toBe(true);
      await shot(`eshell-deactivated-${language}`);
      await ctx.close();
    },
  );

  it.each([
    ['zh-CN', '目录不存在', '返回家目录'],
    ['en-US', 'Directory does not exist', 'Back to the home directory'],
  ] as const)('shows a missing folder as an error with the way home (%s)', async (language, text, home) => {
    const { page, ctx, shot } = await logInAs(env.browser, env.portal.url, 'demo', {
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
});
