import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { newContext, screenshotter, watchErrors } from './browser';

export const DEMO_PASSWORD = process.env.PORTAL_DEMO_PASSWORD ?? 'demo-portal-2026';
export type Language = 'zh-CN' | 'en-US' | 'en-XA';

/**
 * A fresh browser context and page, not logged in; `language` is put in localStorage before every page load when
 * given. Page errors are collected and screenshots named.
 */
export async function visitor(
  browser: Browser,
  baseUrl: string,
  opts: { language?: Language; context?: BrowserContextOptions } = {},
) {
  const ctx = await newContext(browser, baseUrl, opts.context);
  if (opts.language)
    await ctx.addInitScript((l) => window.localStorage.setItem('hpc.language', l), opts.language);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  return { ctx, page, errors, shot: screenshotter(page) };
}

/** Fills and submits the login form the page shows. */
export async function submitLogin(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.locator('form input').first().fill(username);
  await page.locator('form input[type=password]').fill(password);
  await page.locator('form button[type=submit]').click();
}

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
  const visit = await visitor(browser, baseUrl, { language, context: opts.context });
  await visit.page.goto(`/login?redirect=${encodeURIComponent(at)}`);
  await submitLogin(visit.page, username);
  const target = new URL(at, baseUrl).pathname;
  await visit.page.waitForURL((u) => u.pathname === target);
  return visit;
}
