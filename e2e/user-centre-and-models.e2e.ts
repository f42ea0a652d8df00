import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, catalogApi } from '@hpc/api-client';
import { chooseOption, clickMenuItem, shownIn } from './support/browser';
import { usePortalEnv } from './support/env';
import { DEMO_PASSWORD, submitLogin, visitor as newVisitor } from './support/login';

/**
 * Issue 13 §3 and §4 as a person meets them, in Chinese and English: a model's files (tree, sizes, sha256, a
 * download checked byte for byte), "copy to my E-File" with its progress and the folder opened in E-File, the
 * same name refused; the user centre (profile, accounts, centres and compute users, the password form with the
 * spec's messages, a real password change) and preferences that follow the user to another browser.
 */
describe('model files and the user centre in the browser', () => {
  const env = usePortalEnv('user-centre');

  /** A browser context (closed with the browser); `language` is put in localStorage when given. */
  const visitor = (language?: 'zh-CN' | 'en-US') =>
    newVisitor(env.browser, env.portal.url, { language, context: { acceptDownloads: true } });

  async function logIn(page: Page, username: string, password = DEMO_PASSWORD) {
    await page.goto('/login');
    await submitLogin(page, username, password);
    await page.waitForURL((u) => u.pathname !== '/login');
  }

  /** The catalogue's calls as a visitor makes them (no session: the catalogue is public). */
  const catalog = () => catalogApi(new ApiClient({ baseUrl: env.portal.url }));

  /** The id of a demo model, by its English name. */
  async function modelId(name: string): Promise<number> {
    const { list } = await catalog().models.list({ keyword: name });
    return list.find((m) => m.nameEn === name)!.id;
  }

  const fileRow = (page: Page, name: string) =>
    page
      .locator('.hpc-model-files tr.ant-table-row')
      .filter({ hasText: new RegExp(`^\\s*${name.replace('.', '\\.')}`) });

  it('shows a model’s files to a visitor, and a download has the listed size and sha256 (Chinese)', async () => {
    const { page, errors, shot } = await visitor('zh-CN');
    const id = await modelId('Qwen2.5-7B-Instruct');
    await page.goto(`/model-zoo/${id}`);
    await page.getByRole('tab', { name: '模型文件' }).click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'files');
    await fileRow(page, 'config.json').waitFor();
    // Folders first, then files; the README is one of them.
    await expect.poll(() => page.locator('.hpc-model-file-name').first().textContent()).toContain('examples');
    await fileRow(page, 'README.md').waitFor();
    expect(await page.getByTestId('model-files-summary').textContent()).toMatch(/共 \d+ 个文件/);
    // Not logged in: the copy asks for a login first.
    await page.getByRole('button', { name: '登录后复制到 E-File' }).waitFor();
    await shot('models-files-zh');

    const files = await catalog().models.files(id);
    const config = files.files.find((f) => f.path === 'config.json')!;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: '下载 config.json' }).click(),
    ]);
    const saved = await download.path();
    const bytes = fs.readFileSync(saved);
    expect(download.suggestedFilename()).toBe('config.json');
    expect(bytes.length).toBe(config.size);
    expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(config.sha256);

    // The model card tab renders the README.
    await page.getByRole('tab', { name: '模型介绍' }).click();
    await page.locator('.hpc-detail-main h1, .hpc-detail-main h2').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('shows no Files tab on a model without files, and the "+N" of labels a card cannot show (issue 25 §3.9)', async () => {
    const { page, errors } = await visitor('zh-CN');
    const id = await modelId('Qwen2-VL-7B-Instruct');
    expect((await catalog().models.files(id)).files).toEqual([]);
    // Even when a link asks for the files.
    await page.goto(`/model-zoo/${id}?tab=files`);
    await page.getByRole('tab', { name: '模型介绍' }).waitFor();
    await page.locator('.hpc-detail-main h1, .hpc-detail-main h2').first().waitFor();
    expect(await page.getByRole('tab', { name: '模型文件' }).count()).toBe(0);
    // Its card: 8 labels, then "+3" with the rest in a tooltip.
    await page.goto('/model-zoo/list?keyword=Qwen2-VL');
    const card = page.locator('.hpc-card').filter({ hasText: 'Qwen2-VL' }).first();
    const more = card.locator('.hpc-label-more');
    await more.waitFor();
    expect(await more.textContent()).toBe('+3');
    expect(await card.locator('.hpc-label:not(.hpc-label-more)').count()).toBe(8);
    await more.hover();
    await page.getByRole('tooltip').waitFor();
    expect(errors).toEqual([]);
  });

  it('offers 500 models per page, as E-File does, and shows them all at once (spec §9)', async () => {
    const { page, errors, shot } = await visitor('zh-CN');
    await page.goto('/model-zoo/list');
    // Cards may paint in more than one frame: counted once the page has settled, not at the first card.
    // expect.poll gives up after 1 s by default: too soon for a first page on a loaded machine.
    await expect.poll(() => page.locator('.hpc-card').count(), { timeout: 15_000 }).toBe(20);
    await chooseOption(page.locator('.hpc-pagination .ant-select'), '500');
    await page.waitForURL((u) => u.searchParams.get('size') === '500');
    const { total } = await catalog().models.list({ pageSize: 500 });
    expect(total).toBeGreaterThan(20);
    await expect.poll(() => page.locator('.hpc-card').count()).toBe(total);
    await shot('models-list-500-zh');
    expect(errors).toEqual([]);
  });

  it('copies a model into E-File with progress, opens it there, and refuses the same name again (Chinese)', async () => {
    const { page, errors, shot } = await visitor('zh-CN');
    await logIn(page, 'demo');
    const id = await modelId('Qwen2.5-7B-Instruct');
    const downloads = async () => (await catalog().models.detail(id)).downloadCount;
    const before = await downloads();
    await page.goto(`/model-zoo/${id}?tab=files`);
    await page.getByRole('button', { name: '复制到我的 E-File' }).click();
    const dialog = page.getByRole('dialog');
    // The home folder comes from /model-zoo/proxy/efile/info for the first centre.
    await expect.poll(() => dialog.getByLabel('目标目录').inputValue()).toBe('/public/home/demo');
    expect(await dialog.getByLabel('新文件夹名称').inputValue()).toBe('Qwen2.5-7B-Instruct');
    await shot('models-copy-dialog-zh');
    await dialog.getByRole('button', { name: '开始复制' }).click();
    await dialog.getByText('复制完成').waitFor();
    expect(await dialog.getByTestId('model-copy-progress').textContent()).toMatch(/文件 (\d+) \/ \1/);
    await shot('models-copy-done-zh');
    // A copy counts as a download of the model.
    await expect.poll(downloads).toBe(before + 1);
    // The copy's upload command ends with the copy: not listed (nor valid) in the user centre until midnight.
    const commands = await page.evaluate(async () => {
      const r = await fetch('/api/user/credentials');
      return ((await r.json()) as { data: { kind: string; detail: string }[] }).data;
    });
    expect(commands.filter((c) => c.kind === 'linux')).toEqual([]);

    await dialog.getByRole('button', { name: '在 E-File 中查看' }).click();
    await page.waitForURL((u) => u.pathname === '/efile');
    expect(new URL(page.url()).searchParams.get('path')).toBe('/public/home/demo/Qwen2.5-7B-Instruct');
    await page.getByTestId('efile-name').filter({ hasText: 'model-00001-of-00002.safetensors' }).waitFor();
    await page
      .getByTestId('efile-name')
      .filter({ hasText: /^examples$/ })
      .waitFor();
    await shot('models-copy-in-efile-zh');

    // The same folder name again: refused before anything is copied, in Chinese.
    await page.goto(`/model-zoo/${id}?tab=files`);
    await page.getByRole('button', { name: '复制到我的 E-File' }).click();
    await expect
      .poll(() => page.getByRole('dialog').getByLabel('目标目录').inputValue())
      .toBe('/public/home/demo');
    await page.getByRole('dialog').getByRole('button', { name: '开始复制' }).click();
    await page.getByRole('dialog').getByText('已存在同名目录').waitFor();
    await shot('models-copy-exists-zh');
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });

  it('walks the model files and a copy to another centre in English', async () => {
    const { page, errors, shot } = await visitor('en-US');
    await logIn(page, 'demo');
    const id = await modelId('BERT-base-Chinese');
    await page.goto(`/model-zoo/${id}`);
    await page.getByRole('tab', { name: 'Files' }).click();
    await fileRow(page, 'vocab.txt').waitFor();
    expect(await page.getByTestId('model-files-summary').textContent()).toMatch(/^\d+ files, /);
    await shot('models-files-en');
    await page.getByRole('button', { name: 'Copy to my E-File' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Target folder').inputValue()).toBe('/public/home/demo');
    // The Kunshan centre.
    await chooseOption(dialog.getByLabel('Computing centre'), 'Kunshan');
    await dialog.getByLabel('New folder name').fill('');
    await dialog.getByRole('button', { name: 'Start copying' }).click();
    await dialog.getByText('The folder name cannot be empty').waitFor();
    await dialog.getByLabel('New folder name').fill('a/b');
    await dialog.getByText('The name must not contain "/"').waitFor();
    await dialog.getByLabel('New folder name').fill('bert-zh');
    expect(await shownIn(dialog.getByLabel('Computing centre'))).toContain('Kunshan');
    await dialog.getByRole('button', { name: 'Start copying' }).click();
    await dialog.getByText('Copy finished').waitFor();
    await shot('models-copy-done-en');
    await dialog.getByRole('button', { name: 'View in E-File' }).click();
    await page.waitForURL((u) => u.searchParams.get('cluster') === '11251');
    await page.getByTestId('efile-name').filter({ hasText: 'vocab.txt' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the user centre in English: profile, accounts, centres and compute users, the password rules', async () => {
    const { page, errors, shot } = await visitor('en-US');
    await logIn(page, 'demo');
    await page.getByRole('button', { name: 'User menu' }).click();
    await clickMenuItem(page.getByRole('menuitem', { name: 'User centre' }));
    await page.waitForURL((u) => u.pathname === '/user-center');
    await page.getByRole('heading', { name: 'User centre' }).waitFor();
    await page.getByText('演示用户').first().waitFor();
    // The alert bar's data in full: demo's Kunshan account, 88.50 left, ending within days.
    const accounts = page.locator('.ant-card').filter({ hasText: 'My accounts' });
    await accounts.getByText('演示课题组（昆山）').waitFor();
    expect(await accounts.textContent()).toMatch(/88\.50/);
    expect(await accounts.textContent()).toMatch(/days? left/);
    const centres = page.locator('.ant-card').filter({ hasText: 'Centres and compute users' });
    await centres.getByText('Hefei Advanced Computing Center').waitFor();
    expect(await centres.textContent()).toContain('/public/home/demo');
    const pw = page.locator('.ant-card').filter({ hasText: 'Change password' });
    await pw.getByLabel('Current password').fill(DEMO_PASSWORD);
    await pw.getByLabel('New password').fill('another-password-1');
    await pw.getByLabel('Confirm password').fill('another-password-2');
    await pw.getByText('Confirm password must equal new password').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('user-centre-en');
    await page.mouse.wheel(0, 2000);
    await shot('user-centre-en-lower');
    expect(errors).toEqual([]);
  });

  it('changes a password and keeps preferences across browsers (Chinese)', async () => {
    const first = await visitor('zh-CN');
    const { page, errors, shot } = first;
    await logIn(page, 'wangwu');
    await page.goto('/user-center');
    await page.getByRole('heading', { name: '用户中心' }).waitFor();
    // wangwu's Hefei account is disabled.
    const accounts = page.locator('.ant-card').filter({ hasText: '我的账户' });
    await accounts.getByText('王五课题组（合肥）').waitFor();
    expect(await accounts.textContent()).toContain('停用');

    const pw = page.locator('.ant-card').filter({ hasText: '修改密码' }).first();
    await pw.getByLabel('原密码').fill('wrong-password');
    await pw.getByLabel('新密码').fill('wangwu-new-pass');
    await pw.getByLabel('确认密码').fill('wangwu-new-pas');
    await pw.getByText('确认密码必须与新密码一致').waitFor();
    await pw.getByLabel('确认密码').fill('wangwu-new-pass');
    await pw.getByRole('button', { name: '修改密码' }).click();
    await pw.getByText('原密码不正确').waitFor();
    await shot('user-centre-password-zh');
    await pw.getByLabel('原密码').fill(DEMO_PASSWORD);
    await pw.getByRole('button', { name: '修改密码' }).click();
    await page.getByText('密码已修改').waitFor();

    // Preferences: English and the light blue theme, chosen in the user centre.
    const prefs = page.locator('.ant-card').filter({ hasText: '偏好设置' });
    await prefs.getByText('浅蓝').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light_blue');
    await prefs.getByText('English').click();
    await page.getByRole('heading', { name: 'User centre' }).waitFor();
    await shot('user-centre-preferences-en');
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);

    // Another browser (nothing in its storage: Chinese, dark blue) with the new password: English, light blue.
    const second = await visitor();
    await logIn(second.page, 'wangwu', 'wangwu-new-pass');
    await expect.poll(() => second.page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await expect
      .poll(() => second.page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('light_blue');
    await second.page.goto('/user-center');
    await second.page.getByRole('heading', { name: 'User centre' }).waitFor();
    await second.shot('user-centre-other-browser-en');
    expect(second.errors).toEqual([]);
  });

  it('paints the home page in the language the user saved from the first frame after login, never blank (issue 25 §3.2)', async () => {
    const first = await visitor('zh-CN');
    await logIn(first.page, 'lisi');
    const saved = first.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user/preferences' && r.request().method() !== 'GET',
    );
    // Chosen the moment the choice is on screen, before the lazily loaded preferences sync has even mounted (its
    // code is held back until then, as a loaded machine may): the choice is still the user's, and saved
    // (docs/DECISIONS.md, "A language chosen before the preferences sync mounts").
    let chose = () => undefined as void;
    const chosen = new Promise<void>((resolve) => (chose = resolve));
    let syncHeld = false;
    await first.page.route(/\/assets\/preferences-sync-[^/]+\.js$/, async (route) => {
      syncHeld = true;
      await chosen;
      await route.continue();
    });
    await first.page.goto('/user-center');
    await first.page.locator('.ant-card').filter({ hasText: '偏好设置' }).getByText('English').click();
    await first.page.getByRole('heading', { name: 'User centre' }).waitFor();
    expect(syncHeld).toBe(true);
    chose();
    expect((await saved).ok()).toBe(true);
    expect((await saved).request().postDataJSON()).toEqual({ language: 'en-US' });
    await first.page.unrouteAll({ behavior: 'ignoreErrors' });

    // Another browser in Chinese: every text the home page's title shows after login is recorded.
    const second = await visitor('zh-CN');
    await second.page.addInitScript(() => {
      const seen: string[] = [];
      const blank: string[] = [];
      Object.assign(window, { heroTitles: seen, blankAt: blank });
      new MutationObserver(() => {
        const h1 = document.querySelector('.hpc-hero h1');
        if (h1?.textContent && seen.at(-1) !== h1.textContent) seen.push(h1.textContent);
        // The page's body is never empty: a page or a loading state (issue 25 §3.2).
        const content = document.querySelector('.hpc-content');
        if (content && content.children.length === 0) blank.push(location.pathname);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await logIn(second.page, 'lisi');
    await second.page.locator('.hpc-hero h1').waitFor();
    await expect
      .poll(() => second.page.evaluate(() => document.documentElement.lang), { timeout: 15_000 })
      .toBe('en-US');
    // Whatever else could still come (the preferences' own sync) has had its time.
    await second.page.waitForTimeout(1500);
    const { titles, blank } = await second.page.evaluate(() => {
      const w = window as unknown as { heroTitles: string[]; blankAt: string[] };
      return { titles: w.heroTitles, blank: w.blankAt };
    });
    expect(blank).toEqual([]);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.filter((t) => /\p{Script=Han}/u.test(t))).toEqual([]);
    expect(second.errors).toEqual([]);
  });
});
