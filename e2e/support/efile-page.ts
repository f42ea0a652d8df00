import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { PortalEnv } from './env';
import { submitLogin, visitor } from './login';

/** E-File's browser tests use the common set-up (the name stays for their imports). */
export { usePortalEnv as useEfileEnv, type PortalEnv as EfileEnv } from './env';

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
  const visit = await visitor(browser, baseUrl, { language, context: { acceptDownloads: true } });
  await visit.page.goto(at);
  await visit.page.waitForURL((u) => u.pathname === '/login');
  await submitLogin(visit.page, 'demo');
  await visit.page.waitForURL((u) => u.pathname === '/efile');
  await visit.page.getByTestId('efile-name').first().waitFor();
  return visit;
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

/**
 * The helpers of an E-File browser test over its env: `host(path)`, where a centre's absolute path lies on this
 * machine (cluster 11250 unless named); `loggedIn()`, {@link logInToEfile} on the env's portal; `refresh(page)`, a
 * click on the list's refresh button.
 */
export function efileHelpers(env: PortalEnv) {
  return {
    host: (p: string, cluster = '11250') => path.join(env.portal.dataDir, 'clusters', cluster, p.slice(1)),
    loggedIn: (language?: 'zh-CN' | 'en-US', at?: string) =>
      logInToEfile(env.browser, env.portal.url, language, at),
    refresh: async (page: Page) => {
      await page.getByTestId('efile-refresh').click();
    },
  };
}

/**
 * A fast-transfer login for the demo home, asked for from `page` (signed in) as the page asks for one before it
 * hands a client its day token: the envelope, `data.token` the day token.
 */
export const askFastransLogin = (page: Page) =>
  page.evaluate(async () => {
    const csrf = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie)?.[1] ?? '';
    const res = await fetch('/model-zoo/proxy/efile/fastrans/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
      body: JSON.stringify({ directory: encodeURIComponent('/public/home/demo'), clusterId: '11250' }),
    });
    return (await res.json()) as { code: string; data: { token: string } };
  });
