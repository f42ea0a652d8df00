import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, screenshotter } from './support/browser';
import { logInToEfile, message, nameLink, rowOf, select, useEfileEnv } from './support/efile-page';

const HOME = '/public/home/demo';

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The rest of E-File in the browser: context menu and keys, places, my shares, Linux commands, limits, leaving. */
describe('E-File in the browser, continued', () => {
  const env = useEfileEnv('efile-more');
  const host = (p: string, cluster = '11250') =>
    path.join(env.portal.dataDir, 'clusters', cluster, p.slice(1));

  const loggedIn = (language?: 'zh-CN' | 'en-US', at?: string) =>
    logInToEfile(env.browser, env.portal.url, language, at);
  const refresh = async (page: Page) => {
    await page.getByTestId('efile-refresh').click();
  };
  /** Keys go to the list only once no dialog is on screen (closing ones animate out first). */
  const noDialog = (page: Page) => expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  const at = (page: Page, p: string) => page.waitForURL((u) => u.searchParams.get('path') === p);
  const chooseInTree = async (page: Page, folder: string) => {
    const tree = page.getByTestId('efile-tree');
    await tree.locator('.ant-tree-treenode').filter({ hasText: HOME }).locator('.ant-tree-switcher').click();
    await tree
      .locator('.ant-tree-title')
      .filter({ hasText: new RegExp(`^${folder}$`) })
      .click();
  };

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
    await menu.locator('.ant-dropdown-menu-item').filter({ hasText: '重命名' }).click();
    await page.getByTestId('efile-name-input').fill('k1-renamed.txt');
    await page.getByTestId('efile-name-input').press('Enter');
    await nameLink(page, 'k1-renamed.txt').waitFor();
    expect(fs.readFileSync(host(`${HOME}/k1-renamed.txt`), 'utf8')).toBe('k1.txt');

    // Right-click, delete from the menu.
    await noDialog(page);
    await expect.poll(() => menu.count()).toBe(0);
    await rowOf(page, 'k3.txt').locator('td').nth(3).click({ button: 'right' });
    await menu.locator('.ant-dropdown-menu-item').filter({ hasText: '删除' }).click();
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
    await message(page, '删除成功');
    expect(fs.existsSync(host(`${HOME}/k2-f2.txt`))).toBe(false);

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

  it('pages (sizes, jump, first and last), sorts by a column and back, hides a column for good, searches, goes fullscreen', async () => {
    // Logging in opens E-File, which creates the demo home; the folder is made after that.
    const { page, errors, shot } = await loggedIn('en-US');
    const dir = `${HOME}/paging`;
    fs.mkdirSync(host(dir));
    for (let i = 0; i < 45; i++)
      fs.writeFileSync(host(`${dir}/f${String(i).padStart(2, '0')}`), 'x'.repeat(i));
    await page.goto(`/efile?cluster=11250&path=${encodeURIComponent(dir)}`);
    const names = () => page.getByTestId('efile-name').allTextContents();
    const first = (name: string) => expect.poll(async () => (await names())[0]).toBe(name);
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

    await page.getByTestId('efile-my-shares-button').click();
    const row = page
      .getByTestId('efile-my-shares')
      .locator('tr.ant-table-row')
      .filter({ hasText: 'analysis.py' });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toBe(`${HOME}/analysis.py`);
    expect(link.endsWith(cells[1]!)).toBe(true);
    expect(cells[2]).toBe(code);
    const day = 24 * 3600 * 1000;
    const [shared, ends] = [Date.parse(cells[3]!), Date.parse(cells[4]!)];
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

    // A cluster without an enabled file service: the recipient is told so, in their language.
    await v.goto('/share/11252/abc');
    await v.getByTestId('share-unavailable').getByText('该链接所在计算中心的文件服务暂不可用').waitFor();
    await screenshotter(v)('efile-share-unavailable-zh');
    await visitor.close();
    await ctx.close();
  });

  it('copies the Linux upload and download commands from the page and they work with the real curl', async () => {
    const { page, ctx } = await loggedIn();
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.portal.url });
    fs.mkdirSync(host(`${HOME}/linux-in`));
    fs.writeFileSync(host(`${HOME}/linux-in/payload.bin`), crypto.randomBytes(3_000_000));
    await refresh(page);
    await select(page, 'linux-in');
    await page.getByTestId('efile-action-share').click();
    await page.getByRole('tab', { name: 'Linux 命令' }).click();
    const linux = page.getByTestId('efile-linux');
    const copied = async (i: number) => {
      const box = linux.locator('.hpc-command').nth(i);
      await box.locator('.hpc-command-copy .ant-typography-copy').click();
      const text = await page.evaluate(() => navigator.clipboard.readText());
      expect(text).toBe(await box.locator('code').textContent());
      return text;
    };
    const bash = (cmd: string, cwd: string) =>
      execFileSync('/bin/bash', ['-c', cmd], {
        cwd,
        env: { ...process.env, PATH: '/usr/bin:/bin' },
      }).toString();

    // Upload into the folder: one file, then a folder through tar.
    await linux.locator('input').fill(`${HOME}/linux-in`);
    await linux.getByRole('button', { name: '生成上传命令' }).click();
    await linux.locator('.hpc-command').nth(1).waitFor();
    const [upFile, upDir] = [await copied(0), await copied(1)];
    const local = path.join(env.work, 'up.bin');
    fs.writeFileSync(local, crypto.randomBytes(2_000_000));
    bash(upFile.replace('curl ', '/usr/bin/curl -s ').replace('FILE', `'${local}'`), env.work);
    expect(sha(host(`${HOME}/linux-in/up.bin`))).toBe(sha(local));
    const tree = path.join(env.work, 'up-tree');
    fs.mkdirSync(path.join(tree, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(tree, 'sub/a.txt'), 'tar upload\n');
    fs.writeFileSync(path.join(tree, 'b.bin'), crypto.randomBytes(500_000));
    bash(upDir.replace('curl ', '/usr/bin/curl -s ').replaceAll('DIR', `'${tree}'`), env.work);
    for (const rel of ['sub/a.txt', 'b.bin']) {
      expect(sha(host(`${HOME}/linux-in/up-tree/${rel}`))).toBe(sha(path.join(tree, rel)));
    }

    // Download: the folder (with what was just uploaded) as a zip, checked file by file.
    await linux.getByRole('button', { name: '生成下载命令' }).click();
    await linux.locator('.hpc-command').nth(2).waitFor();
    const down = await copied(2);
    expect(down).toMatch(
      /^curl -fS -o 'linux-in\.zip' 'http:\/\/127\.0\.0\.1:\d+\/efile\/11250\/linux\/get\/[\w-]+'$/,
    );
    const dl = fs.mkdtempSync(path.join(env.work, 'dl-'));
    bash(down.replace(/^curl /, '/usr/bin/curl -s '), dl);
    execFileSync('unzip', ['-q', 'linux-in.zip'], { cwd: dl });
    for (const rel of ['payload.bin', 'up.bin', 'up-tree/sub/a.txt', 'up-tree/b.bin']) {
      expect(sha(path.join(dl, 'linux-in', rel))).toBe(sha(host(`${HOME}/linux-in/${rel}`)));
    }
    await ctx.close();
  });

  it('zips a selection whose paths are too long for the address through a download key', async () => {
    const { page, ctx } = await loggedIn();
    fs.mkdirSync(host(`${HOME}/long`));
    const names = Array.from(
      { length: 20 },
      (_, i) => `${String(i).padStart(2, '0')}-${'n'.repeat(100)}.txt`,
    );
    for (const n of names) fs.writeFileSync(host(`${HOME}/long/${n}`), n);
    await page.goto(`/efile?path=${encodeURIComponent(`${HOME}/long`)}`);
    await nameLink(page, names[19]!).waitFor();
    await page.locator('.efile-table td').nth(3).click();
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.locator('.efile-table tr.efile-row-selected').count()).toBe(20);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('efile-action-download').click(),
    ]);
    const url = new URL(download.url());
    expect(url.pathname).toBe('/efile/11250/multiDownload.action');
    expect(url.searchParams.get('downKey')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.getAll('paths')).toEqual([]);
    const zip = path.join(env.work, 'long.zip');
    await download.saveAs(zip);
    const listed = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n').sort();
    expect(listed).toEqual(names);
    await ctx.close();
  });

  it('refuses a folder of more than 1000 files for download and for upload, pointing to fast transfer', async () => {
    const { page, ctx, shot } = await loggedIn();
    const remote = host(`${HOME}/thousand`);
    fs.mkdirSync(remote);
    for (let i = 0; i <= 1000; i++) fs.writeFileSync(path.join(remote, `f${i}.txt`), '');
    await refresh(page);
    await select(page, 'thousand');
    await page.getByTestId('efile-action-download').click();
    await message(page, '文件数超过 1000 个，请使用快传客户端或 Linux 命令下载');
    await shot('efile-download-too-many-zh');

    const local = path.join(env.work, 'many');
    fs.mkdirSync(local);
    for (let i = 0; i <= 1000; i++) fs.writeFileSync(path.join(local, `m${i}.txt`), 'x');
    await page.getByTestId('efile-input-folder').setInputFiles(local);
    await message(page, '文件夹“many”中的文件超过 1000 个，请打包压缩后上传或使用快传客户端');
    expect(fs.existsSync(host(`${HOME}/many`))).toBe(false);
    await ctx.close();
  });

  it.each([
    ['en-US', 'Retry'],
    ['zh-CN', '重试'],
  ] as const)('retries a failed upload from its stored chunks (%s)', async (language, retry) => {
    const { page, ctx, shot } = await loggedIn(language);
    const file = path.join(env.work, `retry-${language}.bin`);
    fs.writeFileSync(file, crypto.randomBytes(5 * 1024 * 1024 + 123));
    // The third chunk sent fails once with a server error; everything else goes through.
    let posts = 0;
    await page.route('**/chunkUpload.action*', (route) =>
      route.request().method() === 'POST' && ++posts === 3
        ? route.fulfill({ status: 500, body: 'boom' })
        : route.continue(),
    );
    await page.getByTestId('efile-input-files').setInputFiles(file);
    const status = page.getByTestId('efile-upload-status').first();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('error');
    await shot(`efile-upload-retry-${language}`);
    await page.getByRole('button', { name: retry }).click();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('success');
    expect(sha(host(`${HOME}/retry-${language}.bin`))).toBe(sha(file));
    // Chunks stored before the failure were not sent again: 6 chunks, one failure, at most 3 in flight then.
    expect(posts).toBeLessThanOrEqual(6 + 3);
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
    await page.getByTestId('efile-my-shares-button').click();
    await page.getByTestId('efile-my-shares').getByText('Closed').first().waitFor();
    await page.waitForTimeout(400); // the drawer slides in
    await shot('efile-my-shares-en');
    await page.goto('/share/11252/abc');
    await page.getByText("The file service of this link's computing centre is not available").waitFor();
    await shot('efile-share-unavailable-en');
    await ctx.close();
  });

  it('cancels a running copy on the server when the user leaves the site', async () => {
    const { page, ctx } = await loggedIn();
    // A large folder (sparse files: instant to make, real bytes to copy) and an empty target.
    const big = host(`${HOME}/bigdir`);
    fs.mkdirSync(big);
    // 2 GiB: about 10 s of writing on a slow disk, far longer than the test needs before it leaves.
    const part = 512 * 1024 ** 2;
    for (let i = 0; i < 4; i++) {
      fs.writeFileSync(path.join(big, `part${i}.bin`), '');
      fs.truncateSync(path.join(big, `part${i}.bin`), part);
    }
    fs.mkdirSync(host(`${HOME}/dest`));
    await refresh(page);
    await select(page, 'bigdir');
    await page.getByTestId('efile-action-copy').click();
    await chooseInTree(page, 'dest');
    const started = page.waitForResponse((r) => r.url().includes('/copy.action'));
    await page.locator('.ant-modal-footer .ant-btn-primary').last().click();
    const res = await started;
    const token = (await res.request().allHeaders()).token!;
    const { operationId } = ((await res.json()) as { data: { operationId: string } }).data;
    await page.getByTestId('efile-operation').waitFor();

    await page.goto('about:blank');
    const progress = async () =>
      (
        (await (
          await fetch(`${env.portal.url}/efile/11250/operationProgress.action?operationId=${operationId}`, {
            headers: { token },
          })
        ).json()) as { data: { status: string; bytesDone: number; bytesTotal: number } }
      ).data;
    // A write already handed to the disk finishes before the copy stops: allow for a busy disk.
    await expect.poll(async () => (await progress()).status, { timeout: 30_000 }).toBe('cancelled');
    const p = await progress();
    expect(p.bytesTotal).toBe(4 * part);
    expect(p.bytesDone).toBeLessThan(p.bytesTotal);
    // Nothing under its final name, and the hidden temp copy is gone too.
    await expect.poll(() => fs.readdirSync(host(`${HOME}/dest`))).toEqual([]);
    await ctx.close();
  });
});
