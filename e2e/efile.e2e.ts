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

describe('E-File in the browser', () => {
  const env = useEfileEnv('efile-files');
  const host = (p: string) => path.join(env.portal.dataDir, 'clusters', '11250', p);

  const loggedIn = (language?: 'zh-CN' | 'en-US', at?: string) =>
    logInToEfile(env.browser, env.portal.url, language, at);
  const goto = async (page: Page, p: string) => {
    await page.getByTestId('efile-goto').fill(p);
    await page.getByTestId('efile-goto').press('Enter');
    await page.waitForURL((u) => u.searchParams.get('path') === p);
  };
  const create = async (page: Page, kind: '文件夹' | '文件' | 'folder' | 'file', name: string) => {
    await page.getByTestId('efile-create-button').hover();
    await page
      .locator('.ant-dropdown-menu-item')
      .filter({ hasText: new RegExp(`(新建|New) ?${kind}$`) })
      .click();
    await page.getByTestId('efile-name-input').fill(name);
    await page.getByTestId('efile-name-input').press('Enter');
    await nameLink(page, name).waitFor();
  };
  const statuses = (page: Page) =>
    page
      .getByTestId('efile-upload-status')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));

  it('creates a folder, uploads a nested folder by the chooser, byte for byte', async () => {
    const { page, errors, shot } = await loggedIn();
    await create(page, '文件夹', 'e2e-up');
    await nameLink(page, 'e2e-up').click();
    await page.waitForURL((u) => u.searchParams.get('path') === `${HOME}/e2e-up`);
    // The address changes a moment before the page renders the folder; files picked in between would go where the
    // page still is (no user is that quick, a test is): wait for the path bar to show the folder.
    await expect.poll(() => page.getByTestId('efile-goto').inputValue()).toBe(`${HOME}/e2e-up`);
    const src = path.join(env.work, 'nested');
    const files = {
      'a.txt': 'alpha\n',
      'sub/b.bin': crypto.randomBytes(2_500_000),
      'sub/deep/c.md': '# 你好\n',
      'empty.dat': '',
    };
    for (const [rel, data] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
      fs.writeFileSync(path.join(src, rel), data);
    }
    await page.getByTestId('efile-input-folder').setInputFiles(src);
    await page.getByTestId('efile-upload-panel').waitFor();
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['success']);
    await shot('efile-upload-done-zh');
    for (const rel of Object.keys(files)) {
      expect(sha(host(`${HOME.slice(1)}/e2e-up/nested/${rel}`))).toBe(sha(path.join(src, rel)));
    }
    // The folder on screen refreshed by itself when the upload landed.
    await nameLink(page, 'nested').waitFor();
    expect(errors).toEqual([]);
  });

  it('pauses and resumes a large upload, and deleting an unfinished one removes its partial file', async () => {
    const { page, shot } = await loggedIn();
    const big = path.join(env.work, 'big.bin');
    fs.writeFileSync(big, crypto.randomBytes(120 * 1024 * 1024));
    await page.getByTestId('efile-input-files').setInputFiles(big);
    const status = page.getByTestId('efile-upload-status').first();
    await expect.poll(() => status.getAttribute('data-status')).toBe('play');
    await page.getByRole('button', { name: '暂停' }).click();
    await expect.poll(() => status.getAttribute('data-status')).toBe('pause');
    await shot('efile-upload-paused-zh');
    await page.getByRole('button', { name: '继续' }).click();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('success');
    expect(sha(host(`${HOME.slice(1)}/big.bin`))).toBe(sha(big));

    // Another big file: pause it half-way, delete it, and its partial file is gone.
    const big2 = path.join(env.work, 'big2.bin');
    fs.copyFileSync(big, big2);
    await page.getByTestId('efile-input-files').setInputFiles(big2);
    const row2 = page.locator('.efile-upload-panel tr.ant-table-row').filter({ hasText: 'big2.bin' });
    await expect.poll(() => row2.getByTestId('efile-upload-status').getAttribute('data-status')).toBe('play');
    await row2.getByRole('button', { name: '暂停' }).click();
    const partials = () =>
      fs.readdirSync(host(HOME.slice(1))).filter((n) => n.includes('big2.bin') && n.endsWith('.efile-part'));
    await expect.poll(partials).toHaveLength(1);
    await row2.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await message(page, '已删除');
    await expect.poll(partials).toHaveLength(0);
    expect(fs.existsSync(host(`${HOME.slice(1)}/big2.bin`))).toBe(false);
  });

  it('warns without a selection, renames with each validation error, copies with overwrite, moves and deletes', async () => {
    const { page, shot } = await loggedIn();
    for (const action of ['delete', 'download', 'rename', 'copy', 'move']) {
      await page.getByTestId(`efile-action-${action}`).click();
      await message(page, /^请先选择要.+的文件$/);
    }
    await create(page, '文件', 'r.txt');
    await select(page, 'r.txt');
    await page.keyboard.press('F2');
    const input = page.getByTestId('efile-name-input');
    const expectError = async (value: string, text: string) => {
      await input.fill(value);
      await input.press('Enter');
      await page.locator('.ant-form-item-explain-error').filter({ hasText: text }).waitFor();
    };
    await expectError('   ', '名称不能全为空格');
    await expectError('x'.repeat(71), '名称长度不能超过 70 个字符');
    await expectError('a/b', '名称不能包含“/”');
    await expectError('r.txt', '名称未修改！');
    await shot('efile-rename-error-zh');
    await input.fill('renamed.txt');
    await input.press('Enter');
    await nameLink(page, 'renamed.txt').waitFor();

    // Copy folder A into B twice: the second time the same name is there and the user confirms overwriting.
    await create(page, '文件夹', 'A');
    await create(page, '文件夹', 'B');
    fs.writeFileSync(host(`${HOME.slice(1)}/A/inside.txt`), 'inside');
    const copyInto = async () => {
      await page.getByTestId('efile-refresh').click();
      await select(page, 'A');
      await page.getByTestId('efile-action-copy').click();
      const tree = page.getByTestId('efile-tree');
      await tree
        .locator('.ant-tree-treenode')
        .filter({ hasText: HOME })
        .locator('.ant-tree-switcher')
        .click();
      await tree.locator('.ant-tree-title').filter({ hasText: /^B$/ }).click();
      await page.locator('.ant-modal-footer .ant-btn-primary').last().click();
    };
    await copyInto();
    await expect.poll(() => fs.existsSync(host(`${HOME.slice(1)}/B/A/inside.txt`))).toBe(true);
    await copyInto();
    await page.locator('.ant-modal-confirm').filter({ hasText: '目标位置存在同名项' }).waitFor();
    await shot('efile-copy-overwrite-zh');
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await message(page, '操作完成');

    // Move renamed.txt into B (a plain click selects that row only), then delete A.
    await rowOf(page, 'renamed.txt').locator('td').nth(2).click();
    await page.getByTestId('efile-action-move').click();
    const tree = page.getByTestId('efile-tree');
    await tree.locator('.ant-tree-treenode').filter({ hasText: HOME }).locator('.ant-tree-switcher').click();
    await tree.locator('.ant-tree-title').filter({ hasText: /^B$/ }).click();
    await page.locator('.ant-modal-footer .ant-btn-primary').last().click();
    await expect.poll(() => fs.existsSync(host(`${HOME.slice(1)}/B/renamed.txt`))).toBe(true);
    await expect.poll(() => nameLink(page, 'renamed.txt').count()).toBe(0);
    await rowOf(page, 'A').locator('td').nth(2).click();
    await page.keyboard.press('Delete');
    // One folder: by its name, and that everything in it goes too.
    expect(await page.locator('.ant-modal-confirm-content').innerText()).toBe(
      '确定删除文件夹“A”及其中的全部内容吗？删除后不可恢复。',
    );
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await message(page, '删除成功');
    expect(fs.existsSync(host(`${HOME.slice(1)}/A`))).toBe(false);
  });

  it('edits a text file with Ctrl+S, keeps it after reload, and shows an image', async () => {
    const { page, shot } = await loggedIn();
    await nameLink(page, 'data.csv').click();
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    // The editor is light like the dialog it is in, in the default theme (dark blue darkens the header only).
    const background = await page
      .locator('.cm-editor')
      .evaluate((e) => getComputedStyle(e).backgroundColor.match(/\d+/g)!.slice(0, 3).map(Number));
    expect(Math.min(...background), `editor background rgb(${background.join(', ')})`).toBeGreaterThan(220);
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('6,0.99\n');
    await page.keyboard.press('Control+s');
    await message(page, '保存成功');
    // The header's size is the saved file's, not the one the listing had when the editor opened.
    const saved = fs.statSync(host(`${HOME.slice(1)}/data.csv`)).size;
    expect(saved).toBeLessThan(1024);
    await expect.poll(() => page.locator('.ant-modal-title .efile-dim').innerText()).toBe(`${saved} B`);
    await shot('efile-editor-zh');
    await page.reload();
    await nameLink(page, 'data.csv').click();
    await expect.poll(() => page.locator('.cm-content').textContent()).toContain('6,0.99');
    expect(fs.readFileSync(host(`${HOME.slice(1)}/data.csv`), 'utf8')).toContain('6,0.99');
    await page.locator('.ant-modal-close').click();
    await nameLink(page, 'logo.svg').click();
    const img = page.getByTestId('efile-image');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(64);
    await shot('efile-image-zh');
  });

  it('shares a folder for 3 days; the recipient needs the code, browses, downloads; closing refuses the link', async () => {
    const { page, shot } = await loggedIn();
    await select(page, 'projects');
    await page.getByTestId('efile-action-share').click();
    await page.getByTestId('efile-share-days').fill('');
    await page.locator('.ant-form-item-explain-error').filter({ hasText: '分享有效期不能为空' }).waitFor();
    await page.getByTestId('efile-share-days').fill('999');
    await page
      .locator('.ant-form-item-explain-error')
      .filter({ hasText: '分享有效期最长为 30 天' })
      .waitFor();
    await page.getByTestId('efile-share-days').fill('3');
    await page.getByTestId('efile-share-open').click();
    const link = (await page.getByTestId('efile-share-link').textContent())!.trim();
    const code = (await page.getByTestId('efile-share-code').textContent())!.trim();
    await shot('efile-share-zh');
    expect(link).toMatch(/\/share\/11250\/[\w-]+$/);

    const visitor = await newContext(env.browser, env.portal.url, { acceptDownloads: true });
    const v = await visitor.newPage();
    await v.goto(link);
    await v.getByTestId('share-code').fill('wrong!');
    await v.getByTestId('share-submit').click();
    await v.locator('.ant-form-item-explain-error').filter({ hasText: '提取码' }).waitFor();
    await v.getByTestId('share-code').fill(code);
    await v.getByTestId('share-submit').click();
    await v.getByTestId('share-browser').getByText('demo', { exact: true }).click();
    await v.getByText('notes.txt').waitFor();
    await screenshotter(v)('efile-share-recipient-zh');
    const [file] = await Promise.all([
      v.waitForEvent('download'),
      v
        .getByRole('button', { name: /下\s*载/ })
        .last()
        .click(),
    ]);
    expect(fs.readFileSync(await file.path(), 'utf8')).toContain('Nested folder sample');
    const [zip] = await Promise.all([v.waitForEvent('download'), v.getByTestId('share-zip').click()]);
    const listing = execFileSync('unzip', ['-l', await zip.path()]).toString();
    expect(listing).toContain('notes.txt');

    await page.getByTestId('efile-share-close').click();
    await message(page, '分享已关闭');
    await v.goto(link);
    await v.getByTestId('share-refused').waitFor();
    await visitor.close();
  });

  it('works in English too', async () => {
    const { page, shot } = await loggedIn('en-US');
    await page.getByTestId('efile-action-delete').click();
    await message(page, 'Please choose the files to delete first');
    await select(page, 'job.slurm');
    // One file: by its name alone, no plural left to guess ("item(s)").
    await page.getByTestId('efile-action-delete').click();
    expect(await page.locator('.ant-modal-confirm-content').innerText()).toBe(
      'Delete "job.slurm"? This cannot be undone.',
    );
    await shot('efile-delete-one-en');
    await page.locator('.ant-modal-confirm .ant-btn').filter({ hasText: 'Cancel' }).click();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    await page.getByTestId('efile-action-rename').click();
    await page.getByTestId('efile-name-input').press('Enter');
    await page.locator('.ant-form-item-explain-error').filter({ hasText: 'Name not modified!' }).waitFor();
    await shot('efile-rename-en');
    await page.locator('.ant-modal-footer .ant-btn').first().click();
    // Go to path: validated before any call, then bookmarked in the address.
    await page.getByTestId('efile-goto').fill('relative/path');
    await page.getByTestId('efile-goto').press('Enter');
    await message(page, 'Please enter a valid absolute path inside your home or share directory');
    await goto(page, `${HOME}/projects`);
    await nameLink(page, 'demo').waitFor();
    await page.getByTestId('efile-upload-list-button').click();
    await page
      .getByTestId('efile-upload-panel')
      .getByText('Leaving the site clears this list and stops the uploads')
      .waitFor();
    await shot('efile-en');
  });
});
