import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { expect } from 'vitest';

export { launchBrowser } from '../../test-support/browser';

/** A fresh context (no storage from other tests) at a desktop size, its base URL set to the portal. */
export async function newContext(
  browser: Browser,
  baseURL: string,
  opts: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, ...opts });
  ctx.setDefaultTimeout(15_000);
  return ctx;
}

let shotsDir: string | null = null;

/** Where screenshots go: one temp folder per run, printed once so a failing run can be inspected. */
export function screenshotDir(): string {
  if (!shotsDir) {
    shotsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-shots-'));
    console.log(`e2e screenshots: ${shotsDir}`);
  }
  return shotsDir;
}

/**
 * `screenshot(name)` for one page: writes <dir>/<name>.png and returns its path. Animations and transitions are
 * finished first, so a menu that is opening or a loading veil that is fading shows as it ends.
 */
export function screenshotter(page: Page): (name: string) => Promise<string> {
  return async (name) => {
    const file = path.join(screenshotDir(), `${name.replace(/[^\w.-]+/g, '_')}.png`);
    await page.screenshot({ path: file, animations: 'disabled' });
    return file;
  };
}

/**
 * Collects uncaught page errors and console errors; tests assert it stays empty. Missing optional endpoints
 * (the site config) answer 404 by design and are left out.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/Failed to load resource: the server responded with a status of 404/.test(m.text())) return;
    errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/**
 * Clicks an item of an Ant Design dropdown once the dropdown has finished opening. Playwright's own wait (the item
 * visible and its box still for two frames) is not enough on a loaded machine: the popup is placed after it first
 * shows, and a click between Playwright's hit check and the mouse events lands where the item no longer is, so the
 * menu stays open and nothing happens (3 of 8 tries under a busy CPU). The enter animation's class is gone once the
 * popup stands where it will stay.
 */
export async function clickMenuItem(item: Locator): Promise<void> {
  await clickWhenPlaced(item, 'ant-dropdown');
}

/** Waits until the popup (`popupClass`) holding `item` stands where it will stay, then clicks the item. */
async function clickWhenPlaced(item: Locator, popupClass: string): Promise<void> {
  await item.waitFor();
  // The popup that holds this item (its root), whatever the item's locator starts from.
  const popup = item.locator(`xpath=ancestor::div[contains(concat(" ", @class, " "), " ${popupClass} ")][1]`);
  await expect
    .poll(async () => (await popup.getAttribute('class')) ?? '', { timeout: 10_000 })
    .not.toMatch(/-(enter|appear)\b/);
  // A context menu near the window's edge may keep being placed again (CI saw "element is not stable" for 15 s):
  // then the item's own click event is sent to it where it stands.
  await item.click({ timeout: 5000 }).catch(() => item.dispatchEvent('click'));
}

/**
 * Chooses `label` in an Ant Design select and waits until the select shows it, as a user would look. A choice lost
 * as {@link clickMenuItem} says once sent a model's copy to the first centre instead of the one chosen (CI,
 * 2026-11-29): the test then failed far from the cause.
 */
export async function chooseOption(select: Locator, label: string): Promise<void> {
  await select.click();
  const option = select
    .page()
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: label });
  await clickWhenPlaced(option, 'ant-select-dropdown');
  await expect.poll(() => shownIn(select), { timeout: 10_000 }).toContain(label);
}

/** What an Ant Design select shows as chosen (its options are elsewhere, in a popup on the page's body). */
export async function shownIn(select: Locator): Promise<string> {
  const root = select.locator(
    'xpath=ancestor-or-self::div[contains(concat(" ", @class, " "), " ant-select ")][1]',
  );
  return (await root.textContent()) ?? '';
}
