import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickMenuItem, launchBrowser, newContext, screenshotter, watchErrors } from './support/browser';
import { portalUnderTest, type RunningPortal } from './support/portal';

/**
 * The catalogue as a person uses it: land, open the image centre from the menu, search, filter, open an image,
 * come back, switch language and theme, and hit an unknown address. One context for the whole journey, since
 * the steps build on each other (filters in the address, language and theme in localStorage).
 */
describe('catalogue in the browser', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let errors: string[];
  let shot: (name: string) => Promise<string>;

  const path = () => new URL(page.url()).pathname;
  const query = () => new URL(page.url()).searchParams;
  const cards = () => page.locator('.hpc-card-list article');

  beforeAll(async () => {
    portal = await portalUnderTest();
    browser = await launchBrowser();
    ctx = await newContext(browser, portal.url);
    page = await ctx.newPage();
    errors = watchErrors(page);
    shot = screenshotter(page);
  });

  afterAll(async () => {
    await ctx?.close();
    await browser?.close();
    await portal?.stop();
  });

  it('serves hashed assets for a year, the favicon for a day, and the page itself revalidated', async () => {
    const html = await fetch(`${portal.url}/main-page`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await html.text())?.[1];
    expect(asset).toBeDefined();
    const cc = async (p: string) => (await fetch(`${portal.url}${p}`)).headers.get('cache-control');
    expect(await cc(asset!)).toBe('public, max-age=31536000, immutable');
    expect(await cc('/favicon.svg')).toBe('public, max-age=86400');
    expect(await cc('/index.html')).toBe('no-cache');
  });

  it('lands on /main-page from /', async () => {
    await page.goto('/');
    await page.waitForURL('**/main-page');
    await expect(page.getByRole('heading', { level: 1 }).first().textContent()).resolves.toBeTruthy();
    // The landing page links to the four parts of the portal, E-File included.
    await page.locator('a[href="/efile"]').first().waitFor();
    await shot('main-page');
  });

  it('opens the image centre from the menu', async () => {
    await page.getByRole('menu').getByRole('link', { name: '镜像中心' }).click();
    await page.waitForURL('**/service-list');
    await page.getByRole('heading', { name: '镜像中心' }).waitFor();
    await cards().first().waitFor();
  });

  it('searches "PyTorch" from the header', async () => {
    const box = page.getByRole('searchbox', { name: '请输入镜像名称' });
    await box.fill('PyTorch');
    await box.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('keyword') === 'PyTorch');
    await expect
      .poll(async () => (await cards().allTextContents()).every((t) => /pytorch/i.test(t)))
      .toBe(true);
    expect(await cards().count()).toBeGreaterThan(0);
  });

  it('filters by accelerator type and by a label, then removes the label tag', async () => {
    const panel = page.getByRole('navigation', { name: '筛选' });
    await panel.getByRole('button', { name: /^GPU/ }).click();
    await page.waitForURL((u) => u.searchParams.get('acceleratorType') === 'GPU');
    await expect
      .poll(async () =>
        (await page.locator('.hpc-card-list .hpc-accel-tag').allTextContents()).every((t) =>
          t.includes('GPU'),
        ),
      )
      .toBe(true);

    await panel.getByRole('button', { name: 'CUDA 12' }).click();
    await page.waitForURL((u) => u.searchParams.getAll('labels').includes('cuda12'));
    await expect
      .poll(async () => (await cards().allTextContents()).every((t) => t.includes('CUDA 12')))
      .toBe(true);
    const selected = page.getByLabel('已选条件');
    await selected.getByText('CUDA 12').waitFor();
    await shot('image-list-filtered');

    await selected.getByRole('button', { name: '移除 CUDA 12' }).click();
    await page.waitForURL((u) => u.searchParams.getAll('labels').length === 0);
    expect(query().get('acceleratorType')).toBe('GPU');
    expect(query().get('keyword')).toBe('PyTorch');
  });

  it('opens an image and shows its rendered description', async () => {
    const first = cards().first().getByRole('link');
    const name = (await first.textContent())?.trim() ?? '';
    await first.click();
    await page.waitForURL('**/image/GPU/**');
    await page
      .getByRole('heading', { level: 1, name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
      .waitFor();

    const md = page.locator('.hpc-markdown');
    await md.getByRole('table').first().waitFor();
    expect(await md.locator('pre code.hljs').count()).toBeGreaterThan(0);
    expect(await md.locator('pre code [class^="hljs-"]').count()).toBeGreaterThan(0);
    const img = md.getByRole('img').first();
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // Never raw HTML from markdown: no script element inside the description.
    expect(await md.locator('script, iframe').count()).toBe(0);
    await page
      .getByText(/docker pull/)
      .first()
      .waitFor();
    await shot('image-detail');
  });

  it('follows an in-text link /image/{creation time}#anchor to the image it names', async () => {
    // The demo descriptions link related images by creation time (spec §2).
    const link = page.locator('.hpc-markdown a[href^="/image/"]').first();
    expect(await link.count()).toBe(1);
    const href = (await link.getAttribute('href')) ?? '';
    const before = page.url();
    await link.click();
    await page.waitForURL((u) => u.href !== before && /^\/image\/[^/]+\/[^/]+$/.test(u.pathname));
    expect(new URL(page.url()).hash).toBe(new URL(href, portal.url).hash);
    await page.goBack();
    await page.waitForURL(before);
  });

  it('goes back to the list with the filters kept', async () => {
    await page.goBack();
    await page.waitForURL('**/service-list?**');
    expect(query().get('acceleratorType')).toBe('GPU');
    expect(query().get('keyword')).toBe('PyTorch');
    await cards().first().waitFor();
  });

  it('redirects /model-zoo to /model-zoo/list', async () => {
    await page.goto('/model-zoo');
    await page.waitForURL('**/model-zoo/list');
    await cards().first().waitFor();
  });

  it('switches to English and shows English labels', async () => {
    await page.getByRole('button', { name: '切换语言' }).click();
    await clickMenuItem(page.getByRole('menuitem', { name: 'English' }));
    await page.getByRole('menu').getByRole('link', { name: 'Model repository' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await page
      .getByRole('navigation', { name: 'Filters' })
      .getByRole('button', { name: 'Text generation' })
      .waitFor();
    await page.getByRole('searchbox', { name: 'Enter model name' }).waitFor();
    // Cards use the English texts too: no Chinese characters left in the card labels.
    const labels = await page.locator('.hpc-card-list .hpc-label').allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter((l) => /\p{Script=Han}/u.test(l))).toEqual([]);
    // A detail in English names the entry in English only: no Chinese name under the title (issue 25 §3.7).
    await cards().first().locator('a').first().click();
    const title = page.locator('.hpc-detail-title h1');
    await title.waitFor();
    expect(await title.textContent()).not.toMatch(/\p{Script=Han}/u);
    expect(await page.locator('.hpc-detail-subname').count()).toBe(0);
    await page.goBack();
    await cards().first().waitFor();
  });

  it('switches the theme, and the choice survives a reload', async () => {
    const headerBg = () => page.locator('.hpc-header').evaluate((el) => getComputedStyle(el).backgroundColor);
    const dark = await headerBg();
    await page.getByRole('button', { name: 'Switch theme' }).click();
    await clickMenuItem(page.getByRole('menuitem', { name: 'Light blue' }));
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light_blue');
    await expect.poll(headerBg).not.toBe(dark);
    await page.reload();
    await cards().first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light_blue');
    expect(await headerBg()).not.toBe(dark);
    await shot('model-list-light-en');
  });

  it('shows the 404 page for an unknown address, and its home button works', async () => {
    await page.goto('/no-such-page/at-all');
    await page.getByText('The page you visited does not exist').waitFor();
    await page.getByRole('link', { name: 'Back to login' }).waitFor();
    await shot('not-found');
    await page.getByRole('button', { name: 'Back home' }).click();
    await page.waitForURL('**/main-page');
    expect(path()).toBe('/main-page');
  });

  it('never breaks a command inside a token at a narrow width: it wraps at spaces and scrolls (issue 25 §3.5)', async () => {
    const narrow = await newContext(browser, portal.url, { viewport: { width: 420, height: 900 } });
    const p = await narrow.newPage();
    /** Per command box: the tokens drawn on more than one line, and whether the box scrolls sideways. */
    const measure = () =>
      p.locator('.hpc-command pre').evaluateAll((pres) =>
        pres.map((pre) => {
          const split: string[] = [];
          const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const tops = new Set(
                Array.from(range.getClientRects())
                  .filter((r) => r.width > 0)
                  .map((r) => Math.round(r.top)),
              );
              if (tops.size > 1) split.push(m[0]);
            }
          }
          return {
            split,
            scrolls: pre.scrollWidth > pre.clientWidth,
            overflow: getComputedStyle(pre).overflowX,
          };
        }),
      );
    for (const [list, detail] of [
      ['/service-list', /^\/image\/[^/]+\/[^/]+$/],
      ['/model-zoo/list', /^\/model-zoo\/\d+$/],
    ] as const) {
      await p.goto(list);
      await p.locator('.hpc-card-list article').first().getByRole('link').first().click();
      await p.waitForURL((u) => detail.test(u.pathname));
      await p.locator('.hpc-command pre').first().waitFor();
      const boxes = await measure();
      expect(boxes.length).toBeGreaterThan(0);
      for (const box of boxes) {
        expect(box.split, list).toEqual([]);
        expect(box.overflow).toBe('auto');
      }
      // The image's pull command has a token wider than the box at this width: the box scrolls instead.
      if (list === '/service-list') expect(boxes.some((b) => b.scrolls)).toBe(true);
    }
    await narrow.close();
  });

  it('logged no page errors on the way', () => {
    expect(errors).toEqual([]);
  });
});
