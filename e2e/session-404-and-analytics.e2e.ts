import http from 'node:http';
import type net from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, screenshotter } from './support/browser';
import { usePortalEnv } from './support/env';
import { logInAs } from './support/login';
import { startPortal, type RunningPortal } from './support/portal';

/** Requests the page made for the analytics part, and any request that left for another server. */
function watchTraffic(page: Page, portalUrl: string) {
  const tracker: string[] = [];
  const foreign: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (/\/assets\/tracker-[\w-]+\.js$/.test(u.pathname)) tracker.push(u.pathname);
    if (u.origin !== new URL(portalUrl).origin && u.protocol.startsWith('http')) foreign.push(r.url());
  });
  return { tracker, foreign };
}

/** The rest of spec's small print of issue 13 §2: login timeout, the static 404 page, analytics. */
describe('session timeout, the static 404 page and analytics (the spec’s small print)', () => {
  const env = usePortalEnv('session-404');

  it('sends a timed-out session through the SSO redirect call, which lands on login with the way back', async () => {
    const { ctx, page } = await logInAs(env.browser, env.portal.url, 'demo', { at: '/service-list' });
    await page.getByTestId('user-menu-name').waitFor();
    await ctx.clearCookies({ name: 'hpc_session' });
    const sso = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/loginSsoRedirect.action');
    await page.reload();
    expect(new URL((await sso).url()).searchParams.get('redirect')).toBe('/service-list');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/service-list');
    await ctx.close();
  });

  it.each([
    ['zh-CN', '您访问的页面不存在', '回到首页'],
    ['en-US', 'The page you visited does not exist', 'Back home'],
  ] as const)(
    'answers an unknown address with 404 and the static page, served without the app (%s)',
    async (language, text, home) => {
      const ctx = await newContext(env.browser, env.portal.url);
      await ctx.addInitScript((l) => window.localStorage.setItem('hpc.language', l), language);
      const page = await ctx.newPage();
      const shot = screenshotter(page);
      // Answered 404 at the address itself, without the app (issue 25 §3.8: curl, monitors and crawlers read it).
      const answer = await page.goto('/no-such-page/at-all');
      expect(answer?.status()).toBe(404);
      expect(new URL(page.url()).pathname).toBe('/no-such-page/at-all');
      await page.getByText(text).waitFor();
      expect(await page.locator('#root').count()).toBe(0);
      expect(await page.locator('script[src^="/assets/"]').count()).toBe(0);
      await shot(`static-404-${language}`);
      await page.getByRole('button', { name: home }).click();
      await page.waitForURL((u) => u.pathname === '/main-page');

      // The in-app page stays at /404.
      await page.goto('/404');
      await page.locator('.hpc-not-found').waitFor();
      expect(await page.locator('#root').count()).toBe(1);
      await ctx.close();
    },
  );

  it('sends nothing and loads nothing for analytics when none is configured', async () => {
    const ctx = await newContext(env.browser, env.portal.url);
    const page = await ctx.newPage();
    const traffic = watchTraffic(page, env.portal.url);
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/site/config');
    await page.goto('/model-zoo/list');
    expect(((await (await config).json()) as { data: { analytics: unknown } }).data.analytics).toBeNull();
    await page.locator('.hpc-card').first().waitFor();
    await page.goto('/service-list');
    await page.locator('.hpc-card').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(traffic.tracker).toEqual([]);
    expect(traffic.foreign).toEqual([]);
    await ctx.close();
  });

  describe('with a tracker and production hosts configured', () => {
    let tracked: portalEvents;
    let trackerServer: http.Server;
    let configured: RunningPortal;
    type portalEvents = { type: string; host: string; page: string; seconds?: number }[];

    beforeAll(async () => {
      tracked = [];
      trackerServer = http.createServer((req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          if (req.method === 'POST') tracked.push(JSON.parse(body) as portalEvents[number]);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => trackerServer.listen(0, '127.0.0.1', r));
      const { port } = trackerServer.address() as net.AddressInfo;
      // Only 127.0.0.1 is a "production host": the same portal reached as localhost is not.
      configured = await startPortal({
        ANALYTICS_TRACKER_URL: `http://127.0.0.1:${port}/collect`,
        ANALYTICS_HOSTS: '127.0.0.1',
      });
    });
    afterAll(async () => {
      await configured?.stop();
      await new Promise((r) => trackerServer?.close(r));
    });

    it('sends page views and 5 s heartbeats on a production host', async () => {
      const ctx = await newContext(env.browser, configured.url);
      const page = await ctx.newPage();
      const traffic = watchTraffic(page, configured.url);
      await page.goto('/model-zoo/list');
      await page.locator('.hpc-card').first().waitFor();
      // Beacons are sent when the browser chooses: waited for, not timed.
      await expect
        .poll(() => tracked.filter((e) => e.type === 'pageview').map((e) => e.page), { timeout: 15_000 })
        .toContain('/model-zoo/list');
      expect(tracked.every((e) => e.host === new URL(configured.url).host)).toBe(true);
      await page.locator('.hpc-main-menu').getByText('镜像中心').click();
      await expect.poll(() => tracked.map((e) => e.page), { timeout: 15_000 }).toContain('/service-list');
      // The heartbeat of the page on screen, 5 s after its view.
      await expect
        .poll(() => tracked.find((e) => e.type === 'heartbeat' && e.page === '/service-list')?.seconds, {
          timeout: 30_000,
        })
        .toBe(5);
      expect(traffic.tracker.length).toBe(1);
      await ctx.close();
    });

    it('sends nothing and loads nothing on a host that is not listed', async () => {
      const other = configured.url.replace('127.0.0.1', 'localhost');
      const ctx = await newContext(env.browser, other);
      const page = await ctx.newPage();
      const traffic = watchTraffic(page, other);
      const config = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/site/config');
      await page.goto('/model-zoo/list');
      expect(
        ((await (await config).json()) as { data: { analytics: unknown } }).data.analytics,
      ).not.toBeNull();
      await page.locator('.hpc-card').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(traffic.tracker).toEqual([]);
      expect(traffic.foreign).toEqual([]);
      expect(tracked.filter((e) => e.host === new URL(other).host)).toEqual([]);
      await ctx.close();
    });
  });
});
