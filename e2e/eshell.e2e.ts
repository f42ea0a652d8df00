import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { logInAs } from './support/login';
import { startPortal, type RunningPortal } from './support/portal';
import { createUsers, idOf, isRoot, removeUsers } from '../test-support/unix-users';
import * as sshd from '../scripts/cluster/sshd.mjs';

if (!isRoot) console.warn('SKIPPED eshell e2e: it starts sshd and logs in as a real user, which needs root');

/** What the terminal shows (xterm's DOM renderer: its rows are text). */
const screen = (page: Page) => page.locator('.xterm-rows').innerText();

/**
 * The browser shell against the built all-in-one and Debian's sshd with the portal's CA (issue 26 §2): the demo
 * login's shell runs as the real user `demo`, survives a reload with its output, and a centre without a shell
 * service says so.
 */
describe.skipIf(!isRoot)('E-Shell in the browser', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let stateDir: string;
  let madeHome: string | null = null;

  beforeAll(async () => {
    createUsers(['demo']);
    const home = execFileSync('getent', ['passwd', 'demo']).toString().split(':')[5]!;
    if (!fs.existsSync(home)) {
      fs.mkdirSync(home, { recursive: true, mode: 0o700 });
      fs.chownSync(home, idOf('demo'), idOf('demo'));
      madeHome = home;
    }
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-sshd-'));
    const { env } = await sshd.start({ stateDir, log: () => undefined });
    portal = await startPortal({ ...env, ESHELL_CLUSTER_ID: '11250' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    if (stateDir) {
      await sshd.stop({ stateDir });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
    if (madeHome) fs.rmSync(madeHome, { recursive: true, force: true });
    removeUsers(['demo']);
  });

  it("opens demo's shell as demo, and a reload attaches to it with what it printed", async () => {
    const { page, errors } = await logInAs(browser, portal.url, 'demo', { language: 'en-US', at: '/eshell' });
    await expect.poll(() => page.getByRole('menuitem', { name: /Command \(E-Shell\)/ }).count()).toBe(1);
    await page.getByTestId('eshell-new').click();
    await page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type('echo "uid=$(id -u) at=$(pwd)"\n');
    const uid = idOf('demo');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(new RegExp(`uid=${uid} at=/`));

    await page.reload();
    await page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
    // The scroll-back came back with the session.
    await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(new RegExp(`uid=${uid} at=/`));
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type('echo again-$((40+2))\n');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('again-42');
    // Text an input method composes arrives as text (insertText is what an IME commits): UTF-8 both ways.
    await page.keyboard.type('printf "%s\\n" "');
    await page.keyboard.insertText('中文输入');
    await page.keyboard.type('" | od -An -tx1 | head -1\n');
    // 中 is e4 b8 ad in UTF-8: the shell got the bytes of the characters composed.
    await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(/e4 b8 ad e6 96 87/);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('follows the window size, changes the font size, and has no serious accessibility violation', async () => {
    const { page } = await logInAs(browser, portal.url, 'demo', { language: 'zh-CN', at: '/eshell' });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByTestId('eshell-new').click();
    await page.locator('[data-testid=eshell-status][data-status=ready]').last().waitFor({ timeout: 15_000 });
    const cols = async (tag: string) => {
      await page.locator('.xterm-helper-textarea').last().focus();
      await page.keyboard.type(`echo ${tag}=$(tput cols)x\n`);
      let n = 0;
      await expect
        .poll(
          async () => {
            n = Number(
              new RegExp(`${tag}=(\\d+)x`).exec(await page.locator('.xterm-rows').last().innerText())?.[1],
            );
            return n > 0;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      return n;
    };
    const wide = await cols('wide');
    await page.setViewportSize({ width: 800, height: 700 });
    await page.waitForTimeout(500);
    const narrow = await cols('narrow');
    expect(narrow).toBeLessThan(wide);
    // A bigger font: fewer columns in the same width.
    await page.getByRole('spinbutton', { name: '字号' }).fill('20');
    await page.waitForTimeout(500);
    expect(await cols('bigfont')).toBeLessThan(narrow);
    // At the suite's desktop width. The main menu is left out: since Dashboard and Job joined it, it folds an entry
    // away at 1440 px in both languages (an aria-hidden but focusable item, Ant Design's overflow), with or without
    // this page's entry; accessibility.e2e.ts checks the menu, this test the shell page.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.mouse.move(0, 0); // no button in its hover colours
    await page.waitForTimeout(300);
    const found = await axeViolations(page, { exclude: ['.hpc-main-menu'] });
    expect(found.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target} ${n.summary}`) }))).toEqual(
      [],
    );
    await page.context().close();
  }, 60_000);

  it('opens a tab in the folder E-File asked for, and closing the tab ends its session', async () => {
    const { page } = await logInAs(browser, portal.url, 'demo', {
      language: 'en-US',
      at: '/eshell?cluster=11250&cwd=%2Ftmp',
    });
    await page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('eshell-status').innerText()).toContain('Opened in /tmp');
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.type('echo "here=$(pwd)"\n');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('here=/tmp');
    // The address no longer asks for a new tab: a reload attaches instead of opening another.
    expect(new URL(page.url()).searchParams.get('cwd')).toBeNull();
    await page.screenshot({ path: path.join(os.tmpdir(), 'eshell-page.png') });
    const tabs = () =>
      page.evaluate(
        () => JSON.parse(sessionStorage.getItem('hpc.eshell.tabs') ?? '[]') as { sessionId?: string }[],
      );
    const [tab] = await tabs();
    expect(tab?.sessionId).toBeTruthy();
    // The service's ssh processes (one per session; earlier tests' sessions wait detached for 10 minutes).
    const sshCount = () => {
      try {
        return execFileSync('pgrep', ['-c', '-f', '^ssh -F /dev/null .* -l demo ']).toString().trim();
      } catch {
        return '0';
      }
    };
    const before = Number(sshCount());
    await page.getByTestId('eshell-close').click();
    expect(await tabs()).toEqual([]);
    // The service ended it at once, not after the detach time.
    await expect.poll(() => Number(sshCount()), { timeout: 10_000 }).toBe(before - 1);
    await page.context().close();
  }, 60_000);

  it('says plainly that a centre without a shell service has none', async () => {
    const { page } = await logInAs(browser, portal.url, 'demo', {
      language: 'zh-CN',
      at: '/eshell?cluster=11251',
    });
    await expect
      .poll(() => page.getByTestId('eshell-none').or(page.getByTestId('eshell-unreachable')).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await page.context().close();
  }, 60_000);
});
