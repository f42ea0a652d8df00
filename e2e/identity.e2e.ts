import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickMenuItem, launchBrowser, newContext, screenshotter, watchErrors } from './support/browser';
import { portalUnderTest, type RunningPortal } from './support/portal';

const PASSWORD = process.env.PORTAL_DEMO_PASSWORD ?? 'demo-portal-2026';

/**
 * Identity as a person meets it: sent to the login page and brought back, the user menu with the centres, the
 * account alert bar, logout, the deactivation notice, a wrong password and throttling, and an expired session.
 * Each journey gets its own browser context, so cookies and storage never leak from one to the next.
 */
describe('identity in the browser', () => {
  let portal: RunningPortal;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    portal = await portalUnderTest();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await portal?.stop();
  });

  /** A fresh visitor in `language` (Chinese is the product's default). */
  async function visitor(language: 'zh-CN' | 'en-US' = 'zh-CN') {
    const ctx = await newContext(browser, portal.url);
    contexts.push(ctx);
    await ctx.addInitScript((l) => window.localStorage.setItem('hpc.language', l), language);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    // 401 (no session yet, wrong password) and 429 (throttled) are answers these journeys ask for.
    const unexpected = () => errors.filter((e) => !/status of (401|429)/.test(e));
    return { ctx, page, unexpected, shot: screenshotter(page) };
  }

  async function logIn(
    page: Page,
    username: string,
    password: string,
    labels = { user: '用户名', pass: '密码' },
  ) {
    await page.getByLabel(labels.user).fill(username);
    await page.getByLabel(labels.pass).fill(password);
    await page.locator('form button[type=submit]').click();
  }

  const path = (page: Page) => {
    const u = new URL(page.url());
    return `${u.pathname}${u.search}`;
  };

  it('takes a visitor to /login and back, shows both centres and the alert bar for demo (Chinese)', async () => {
    const { page, unexpected, shot } = await visitor();
    // The catalogues are public; the header offers the login, which comes back to the same address.
    await page.goto('/model-zoo/list?keyword=bert');
    await page.getByRole('link', { name: '登录' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/model-zoo/list?keyword=bert');
    await page.getByRole('heading', { name: '登录' }).waitFor();
    await shot('identity-login-zh');

    await logIn(page, 'demo', PASSWORD);
    await page.waitForURL((u) => u.pathname === '/model-zoo/list');
    expect(path(page)).toBe('/model-zoo/list?keyword=bert');

    await expect.poll(() => page.getByTestId('user-menu-name').textContent()).toBe('演示用户');
    const bar = page.getByTestId('account-alert-bar');
    await bar.waitFor();
    expect((await bar.boundingBox())?.height).toBe(46);
    // demo's Kunshan account has 88.50 yuan left and ends within 5 days.
    await expect.poll(() => bar.textContent()).toContain('演示课题组（昆山）');
    expect(await bar.textContent()).toContain('昆山超算中心');

    await page.getByRole('button', { name: '用户菜单' }).click();
    const centres = page.getByTestId('user-menu-cluster');
    await expect
      .poll(() => centres.allTextContents())
      .toEqual([expect.stringContaining('合肥先进计算中心'), expect.stringContaining('昆山超算中心')]);
    await shot('identity-demo-zh');

    // Logging out lands on the login page, and the session is gone for good: back to a visitor with a login link.
    await clickMenuItem(page.getByRole('menuitem', { name: '退出登录' }));
    await page.waitForURL((u) => u.pathname === '/login');
    await page.goto('/main-page');
    await page.getByRole('link', { name: '登录' }).waitFor();
    expect(await page.getByTestId('user-menu-name').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/main-page');
    expect(unexpected()).toEqual([]);
  });

  it('closes the alert bar for the rest of the session', async () => {
    const { page } = await visitor();
    await page.goto('/login?redirect=%2Fmain-page');
    await logIn(page, 'demo', PASSWORD);
    const bar = page.getByTestId('account-alert-bar');
    await bar.waitFor();
    await bar.getByRole('button', { name: '关闭提醒' }).click();
    await bar.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('user-menu-name').waitFor();
    expect(await page.getByTestId('account-alert-bar').count()).toBe(0);
  });

  it('shows wangwu the deactivation notice naming the centre', async () => {
    const { page, unexpected, shot } = await visitor();
    await page.goto('/login');
    await logIn(page, 'wangwu', PASSWORD);
    await page.waitForURL((u) => u.pathname === '/main-page');
    const bar = page.getByTestId('account-alert-bar');
    await bar.waitFor();
    const text = (await bar.textContent()) ?? '';
    expect(text).toContain('王五课题组（合肥）');
    expect(text).toContain('已停用');
    expect(text).toContain('合肥先进计算中心');
    expect(text).toContain('销售经理');
    await page.getByRole('button', { name: '用户菜单' }).click();
    await expect
      .poll(() => page.getByTestId('user-menu-cluster').first().textContent())
      .toContain('账户已停用');
    await shot('identity-wangwu-zh');
    expect(unexpected()).toEqual([]);
  });

  it('lists every centre for the manager, the disabled one last', async () => {
    const { page, unexpected } = await visitor();
    await page.goto('/login');
    await logIn(page, 'admin', PASSWORD);
    await page.getByRole('button', { name: '用户菜单' }).click();
    const centres = page.getByTestId('user-menu-cluster');
    await expect.poll(() => centres.count()).toBe(3);
    expect(await centres.last().textContent()).toContain('无锡中心（停用）');
    expect(unexpected()).toEqual([]);
  });

  it('shows the deactivation notice in English too', async () => {
    const { page } = await visitor('en-US');
    await page.goto('/login');
    await logIn(page, 'wangwu', PASSWORD, { user: 'User name', pass: 'Password' });
    const bar = page.getByTestId('account-alert-bar');
    await bar.waitFor();
    expect(await bar.textContent()).toContain(
      'is deactivated: the feature is unavailable in Hefei Advanced Computing Center until the sales manager reactivates it',
    );
  });

  it('sends a user whose session expired to login and back', async () => {
    const { ctx, page, unexpected } = await visitor();
    await page.goto('/login?redirect=%2Fservice-list');
    await logIn(page, 'demo', PASSWORD);
    await page.waitForURL((u) => u.pathname === '/service-list');
    await page.getByTestId('user-menu-name').waitFor();

    // The server forgets nothing here: the browser loses its session cookie, as when the session ends.
    await ctx.clearCookies({ name: 'hpc_session' });
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/service-list');

    await logIn(page, 'demo', PASSWORD);
    await page.waitForURL((u) => u.pathname === '/service-list');
    await page.getByTestId('user-menu-name').waitFor();
    expect(unexpected()).toEqual([]);
  });

  it('closes the window instead in area mode (opened by another centre)', async () => {
    const { ctx, page } = await visitor();
    await page.goto('/login?redirect=%2Fmain-page');
    await logIn(page, 'demo', PASSWORD);
    await page.getByTestId('user-menu-name').waitFor();

    // Another centre's page opens the portal in a new window (window.opener is set), with ?area= as it does.
    const [popup] = await Promise.all([
      ctx.waitForEvent('page'),
      page.evaluate(() => void window.open('/service-list?area=hf', '_blank')),
    ]);
    await popup.getByTestId('user-menu-name').waitFor();
    await ctx.clearCookies({ name: 'hpc_session' });
    // The page's loader asks for the session at navigation, so the window may close before the reload's load event:
    // the aborted reload is then the expected end. Any other failure leaves the window open and `close` never comes.
    await Promise.all([popup.waitForEvent('close'), popup.reload().catch(() => undefined)]);
    expect(popup.isClosed()).toBe(true);
  });

  it('shows the login page when an ?area= window cannot be closed by script', async () => {
    const { ctx, page } = await visitor();
    await page.goto('/login?redirect=%2Fmain-page');
    await logIn(page, 'demo', PASSWORD);
    await page.getByTestId('user-menu-name').waitFor();
    // Typed in by hand: browsers refuse window.close() for a window with history that no script opened.
    await page.goto('/service-list?area=hf');
    await page.getByTestId('user-menu-name').waitFor();
    await ctx.clearCookies({ name: 'hpc_session' });
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/service-list?area=hf');
  });

  it('translates a wrong password, then the throttling message after repeated tries (English)', async () => {
    const { page, unexpected, shot } = await visitor('en-US');
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    // A user name of its own, so the per-user throttle of this test never locks out the demo users.
    const username = `nobody-${Date.now()}`;
    const alert = page.locator('.hpc-login-card [role=alert]');

    await logIn(page, username, 'wrong-password', { user: 'User name', pass: 'Password' });
    await expect.poll(() => alert.textContent()).toBe('Wrong user name or password');
    await shot('identity-wrong-password-en');

    let throttled = false;
    for (let i = 0; i < 10 && !throttled; i++) {
      await page.locator('form button[type=submit]').click();
      await page.locator('form button[type=submit]:not(.ant-btn-loading)').waitFor();
      throttled = /Too many failed logins/.test((await alert.textContent()) ?? '');
    }
    expect(throttled).toBe(true);
    await shot('identity-throttled-en');
    expect(unexpected()).toEqual([]);
  });
});
