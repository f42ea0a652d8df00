import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newContext, screenshotter, watchErrors } from './browser';
import { portalUnderTest, type RunningPortal } from './portal';

export interface EfileEnv {
  portal: RunningPortal;
  browser: Browser;
  /** A scratch folder on this machine (files to upload, downloads). */
  work: string;
}

/** The portal under test, a browser and a scratch folder for one describe block, closed and removed after it. */
export function useEfileEnv(name: string): EfileEnv {
  const env = {} as EfileEnv;
  beforeAll(async () => {
    env.portal = await portalUnderTest();
    env.browser = await launchBrowser();
    env.work = fs.mkdtempSync(path.join(os.tmpdir(), `hpc-e2e-${name}-`));
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.portal?.stop();
    if (env.work) fs.rmSync(env.work, { recursive: true, force: true });
  });
  return env;
}

const PASSWORD = process.env.PORTAL_DEMO_PASSWORD ?? 'demo-portal-2026';

/**
 * A fresh context logged in as `demo` through the login page, in the given language, landed on E-File (`at`)
 * with its first row painted: how every E-File browser test starts.
 */
export async function logInToEfile(
  browser: Browser,
  baseUrl: string,
  language: 'zh-CN' | 'en-US' | 'en-XA' = 'zh-CN',
  at = '/efile',
) {
  const ctx = await newContext(browser, baseUrl, { acceptDownloads: true });
  await ctx.addInitScript((l) => window.localStorage.setItem('hpc.language', l), language);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(at);
  await page.waitForURL((u) => u.pathname === '/login');
  await page.locator('form input').first().fill('demo');
  await page.locator('form input[type=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => u.pathname === '/efile');
  await page.getByTestId('efile-name').first().waitFor();
  return { ctx, page, errors, shot: screenshotter(page) };
}

/** The name link of the row called exactly `name`. */
export const nameLink = (page: Page, name: string) =>
  page.getByTestId('efile-name').filter({ hasText: new RegExp(`^${name.replace(/[.()]/g, '\\$&')}$`) });

/** The table row of the item called `name`. */
export const rowOf = (page: Page, name: string): Locator =>
  page.locator('.efile-table tr.ant-table-row').filter({ has: nameLink(page, name) });

/** Ticks the rows of the named items. */
export const select = async (page: Page, ...names: string[]) => {
  for (const n of names) await rowOf(page, n).locator('.ant-checkbox-input').check();
};

/** Waits for an Ant Design message with this text. */
export const message = (page: Page, text: string | RegExp) =>
  page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
