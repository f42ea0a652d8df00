import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logInToEfile, nameLink, rowOf, useEfileEnv } from './support/efile-page';

const HOME = '/public/home/demo';

/** The focused element, described, with whether a focus indicator is drawn on it (or on the box it styles). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    // A checkbox or radio hides its <input> and draws the ring on the box beside it; a text field on its wrapper.
    const candidates = [el, el.nextElementSibling, el.parentElement, el.parentElement?.parentElement].filter(
      (x): x is Element => x instanceof Element,
    );
    const ring = candidates.some((c) => {
      const s = getComputedStyle(c);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
      return outline || (s.boxShadow !== 'none' && s.boxShadow !== '');
    });
    return {
      tag: el.tagName.toLowerCase(),
      testId:
        el.getAttribute('data-testid') ?? el.closest('[data-testid]')?.getAttribute('data-testid') ?? '',
      text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60),
      focusVisible: el.matches(':focus-visible'),
      ring,
      inDialog: el.closest('.ant-modal') !== null,
      inTable: el.closest('.efile-table') !== null,
      inToolbar: el.closest('.efile-toolbar') !== null,
      /** The name of the table row the focus is in. */
      row: el.closest('tr')?.querySelector('[data-testid=efile-name]')?.textContent ?? null,
    };
  });

type Focused = NonNullable<Awaited<ReturnType<typeof focused>>>;

/**
 * Presses Tab until `until` holds for the focused element (at most `max` times), and returns every stop on the
 * way. Each stop must show where the focus is.
 */
async function tabTo(page: Page, until: (f: Focused) => boolean, max = 80, key = 'Tab'): Promise<Focused[]> {
  const stops: Focused[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    if (!f) continue;
    stops.push(f);
    expect(f.focusVisible && f.ring, `no visible focus on ${JSON.stringify(f)}`).toBe(true);
    if (until(f)) return stops;
  }
  throw new Error(
    `${key} never reached the element; stops: ${JSON.stringify(stops.map((s) => s.testId || s.text))}`,
  );
}

const dialogs = (page: Page) => page.locator('.ant-modal-wrap:visible');

/**
 * The file manager from the keyboard alone (issue 13 §5): after logging in, no mouse. Tab reaches the toolbar, the
 * dialogs and the table with the focus always visible; a folder is created through the New menu and its dialog,
 * opened from the table, a file in it renamed with F2, and a dialog closed with Escape.
 */
describe('E-File from the keyboard', () => {
  const env = useEfileEnv('keyboard');
  const host = (p: string) => path.join(env.portal.dataDir, 'clusters', '11250', p.slice(1));

  it('creates a folder, opens it, renames a file in it and closes a dialog with Escape, without the mouse', async () => {
    const { page, errors, shot } = await logInToEfile(env.browser, env.portal.url, 'en-US');
    // The focus starts at the top of the page, as after a fresh load.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // Tab through the header and the places to the toolbar's New menu.
    const toNew = await tabTo(page, (f) => f.testId === 'efile-create-button');
    expect(toNew.filter((f) => f.inToolbar).length).toBeGreaterThan(3);
    await shot('keyboard-toolbar-focus');
    await page.keyboard.press('Enter');
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
    await menu.waitFor();
    // The menu takes the focus on its first entry.
    const active = () => menu.locator('.ant-dropdown-menu-item-active').textContent();
    // Ant Design moves the focus into the menu a few frames after it opens; a person sees the entry highlighted.
    const inMenu = () => page.evaluate(() => document.activeElement?.closest('.ant-dropdown-menu') != null);
    await expect.poll(inMenu).toBe(true);
    await expect.poll(active).toBe('New folder');
    await page.keyboard.press('Enter');

    // The name dialog takes the focus; type, Enter confirms.
    const input = page.getByTestId('efile-name-input');
    await expect.poll(async () => (await focused(page))?.testId).toBe('efile-name-input');
    expect((await focused(page))?.inDialog).toBe(true);
    await page.keyboard.type('kb-folder');
    await shot('keyboard-new-folder-dialog');
    await page.keyboard.press('Enter');
    await nameLink(page, 'kb-folder').waitFor();
    await expect.poll(() => dialogs(page).count()).toBe(0);
    expect(fs.statSync(host(`${HOME}/kb-folder`)).isDirectory()).toBe(true);
    fs.writeFileSync(host(`${HOME}/kb-folder/draft.txt`), 'draft');

    // Tab into the table to the new folder's name, Enter opens it.
    const toRow = await tabTo(page, (f) => f.inTable && f.text === 'kb-folder');
    expect(toRow.some((f) => f.inTable && f.tag === 'input')).toBe(true); // the rows' checkboxes on the way
    await shot('keyboard-table-focus');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('path') === `${HOME}/kb-folder`);
    await nameLink(page, 'draft.txt').waitFor();

    // Select the file with Space on its checkbox, F2 renames it.
    await tabTo(page, (f) => f.tag === 'input' && f.row === 'draft.txt');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.efile-table tr.efile-row-selected').count()).toBe(1);
    await page.keyboard.press('F2');
    await expect.poll(async () => (await focused(page))?.testId).toBe('efile-name-input');
    await input.press('Control+a');
    await page.keyboard.type('final.txt');
    await page.keyboard.press('Enter');
    await nameLink(page, 'final.txt').waitFor();
    expect(fs.readFileSync(host(`${HOME}/kb-folder/final.txt`), 'utf8')).toBe('draft');
    await expect.poll(() => dialogs(page).count()).toBe(0);

    // A dialog opened from the toolbar closes with Escape, and Tab stays inside it while open.
    await tabTo(page, (f) => f.testId === 'efile-create-button', 80, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await expect.poll(inMenu).toBe(true);
    await expect.poll(active).toBe('New folder');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page))?.testId).toBe('efile-name-input');
    // Past the last button the focus may leave the page for the browser's own bar (Ant Design's lock does not hold
    // it there), but never lands on the page behind, and comes back round to the field.
    const inDialog: Focused[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      if (!f) continue;
      expect(f.inDialog, `Tab left the dialog after ${JSON.stringify(inDialog)}: ${JSON.stringify(f)}`).toBe(
        true,
      );
      inDialog.push(f);
    }
    expect(inDialog.map((f) => f.testId || f.text)).toContain('efile-name-input');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialogs(page).count()).toBe(0);
    expect(fs.readdirSync(host(`${HOME}/kb-folder`))).toEqual(['final.txt']);
    // The focus goes back where it was, not to the top of the page.
    await expect.poll(async () => (await focused(page))?.testId).toBe('efile-create-button');
    expect(errors).toEqual([]);
  });

  it('moves like a desktop file manager: header to rows, arrows, Shift ranges, Enter, F2, Delete, Ctrl+A', async () => {
    const { page, errors, shot } = await logInToEfile(env.browser, env.portal.url, 'en-US');
    const names = ['kd-1.txt', 'kd-2.txt', 'kd-3.txt', 'kd-4.txt'];
    for (const n of names) fs.writeFileSync(host(`${HOME}/${n}`), n);
    await page.getByTestId('efile-refresh').click();
    await nameLink(page, 'kd-4.txt').waitFor();
    const selected = () =>
      page.locator('.efile-table tr.efile-row-selected [data-testid=efile-name]').allTextContents();
    const rows = await page
      .locator('.efile-table tr.ant-table-row [data-testid=efile-name]')
      .allTextContents();

    // The icon-only search buttons of the header and of the folder have names, in the page's language.
    expect(await page.getByRole('button', { name: 'Search in this folder', exact: true }).count()).toBe(1);
    expect(
      await page.locator('.hpc-header-search').getByRole('button', { name: 'Search', exact: true }).count(),
    ).toBe(1);

    // ArrowDown from a column header enters the rows: the first row gets the focus and the selection.
    await page.locator('.efile-table thead th').filter({ hasText: 'File name' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused(page))?.row).toBe(rows[0]);
    expect(await selected()).toEqual([rows[0]]);
    // Down the rows to the first of ours, then Shift+ArrowDown takes the next one too.
    const first = rows.indexOf('kd-1.txt');
    for (let i = 0; i < first; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused(page))?.row).toBe('kd-1.txt');
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(selected).toEqual(['kd-1.txt', 'kd-2.txt']);
    await shot('keyboard-arrows-range');

    // Shift-click selects the range from the row last clicked.
    await rowOf(page, 'kd-1.txt').locator('td').nth(3).click();
    await rowOf(page, 'kd-3.txt')
      .locator('td')
      .nth(3)
      .click({ modifiers: ['Shift'] });
    await expect.poll(selected).toEqual(['kd-1.txt', 'kd-2.txt', 'kd-3.txt']);

    // Ctrl+A: every row of the page.
    await page.keyboard.press('Control+a');
    await expect.poll(async () => (await selected()).length).toBe(rows.length);

    // F2 renames the one selected; Delete deletes the selection after asking.
    await rowOf(page, 'kd-4.txt').locator('td').nth(3).click();
    await page.keyboard.press('F2');
    await expect.poll(async () => (await focused(page))?.testId).toBe('efile-name-input');
    await page.getByTestId('efile-name-input').fill('kd-4-renamed.txt');
    await page.keyboard.press('Enter');
    await nameLink(page, 'kd-4-renamed.txt').waitFor();
    await expect.poll(() => dialogs(page).count()).toBe(0);
    await rowOf(page, 'kd-1.txt').locator('td').nth(3).click();
    await rowOf(page, 'kd-2.txt')
      .locator('td')
      .nth(3)
      .click({ modifiers: ['Shift'] });
    await page.keyboard.press('Delete');
    await page.locator('.ant-modal-confirm').filter({ hasText: 'kd-1.txt' }).waitFor();
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await expect.poll(() => fs.existsSync(host(`${HOME}/kd-2.txt`))).toBe(false);
    expect(fs.existsSync(host(`${HOME}/kd-1.txt`))).toBe(false);
    expect(fs.existsSync(host(`${HOME}/kd-3.txt`))).toBe(true);

    // Enter opens the selected folder, reached by the arrows from the header.
    await expect.poll(() => dialogs(page).count()).toBe(0);
    await nameLink(page, 'projects').waitFor();
    await page.locator('.efile-table thead th').filter({ hasText: 'File name' }).focus();
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 10 && (await focused(page))?.row !== 'projects'; i++)
      await page.keyboard.press('ArrowDown');
    expect((await focused(page))?.row).toBe('projects');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('path') === `${HOME}/projects`);
    expect(errors).toEqual([]);
  });
});
