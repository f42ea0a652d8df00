import type { Browser, BrowserContextOptions } from 'playwright-core';
import { newContext, screenshotter, watchErrors } from './browser';

export const DEMO_PASSWORD = process.env.PORTAL_DEMO_PASSWORD ?? 'demo-portal-2026';

/**
 * A fresh context in `language`, logged in as one of the demo users (demo, wangwu, lisi, admin) through the login
 * page, then at `at` (the path the login page was asked to come back to).
 */
export async function logInAs(
  browser: Browser,
  baseUrl: string,
  username: string,
  opts: { language?: 'zh-CN' | 'en-US'; at?: string; context?: BrowserContextOptions } = {},
) {
  const { language = 'zh-CN', at = '/main-page' } = opts;
  const ctx = await newContext(browser, baseUrl, opts.context);
  await ctx.addInitScript((l) => window.localStorage.setItem('hpc.language', l), language);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(`/login?redirect=${encodeURIComponent(at)}`);
  await page.locator('form input').first().fill(username);
  await page.locator('form input[type=password]').fill(DEMO_PASSWORD);
  await page.locator('form button[type=submit]').click();
  const target = new URL(at, baseUrl).pathname;
  await page.waitForURL((u) => u.pathname === target);
  return { ctx, page, errors, shot: screenshotter(page) };
}
