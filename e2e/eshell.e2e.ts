import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { launchBrowser, screenshotter } from './support/browser';
import { nameLink } from './support/efile-page';
import { logInAs } from './support/login';
import { startPortal, type RunningPortal } from './support/portal';
import { schedulerMissing } from '../test-support/slurm-cluster';
import { createUsers, idOf, isRoot, removeUsers } from '../test-support/unix-users';
import * as sshd from '../scripts/cluster/sshd.mjs';

if (!isRoot) console.warn('SKIPPED eshell e2e: it starts sshd and logs in as a real user, which needs root');

/** What the terminal shows (xterm's DOM renderer: its rows are text). */
const screen = (page: Page) => page.locator('.xterm-rows').innerText();

/**
 * Ends the page's sessions (each tab's close button): a session left open waits detached for 10 minutes and counts
 * towards demo's limit of 8, which the tests after would reach.
 */
async function closeSessions(page: Page) {
  while ((await page.getByTestId('eshell-close').count()) > 0) {
    const before = await page.getByTestId('eshell-close').count();
    await page.getByTestId('eshell-close').first().click();
    await expect.poll(() => page.getByTestId('eshell-close').count()).toBeLessThan(before);
  }
}

/**
 * The browser shell against the built all-in-one and Debian's sshd with the portal's CA (issue 26 §2): the demo
 * login's shell runs as the real user `demo`, survives a reload with its output, and a centre without a shell
 * service says so.
 */
describe.skipIf(!isRoot)('E-Shell in the browser', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let stateDir: string;
  let sshdEnv: Record<string, string>;
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
    sshdEnv = env;
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
    // A real composition, through Chromium's own input-method path (compositionstart, updates, the commit on
    // xterm's text area), as a pinyin IME makes it: the pinyin being composed never reaches the shell, the
    // committed characters do, once.
    const ime = await page.context().newCDPSession(page);
    await page.keyboard.type('printf "%s\\n" "');
    for (const text of ['h', 'ha', 'han', '汉', '汉z', '汉zi', '汉字'])
      await ime.send('Input.imeSetComposition', {
        text,
        selectionStart: text.length,
        selectionEnd: text.length,
      });
    await ime.send('Input.insertText', { text: '汉字' });
    await page.keyboard.type('" | od -An -tx1 | head -1\n');
    // 汉字 is e6 b1 89 e5 ad 97: exactly that, then the newline (no "han" or "zi" before it).
    await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(/^\s*e6 b1 89 e5 ad 97 0a\s*$/m);
    await ime.detach();
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('a network drop: the page attaches again with a fresh ticket to the same shell, whose background job goes on', async () => {
    const { page } = await logInAs(browser, portal.url, 'demo', { language: 'en-US', at: '/eshell' });
    // Every terminal socket goes through here, so the test can cut the one that is open (as a network would).
    const open: { page: { close(): Promise<void> }; server: { close(): Promise<void> } }[] = [];
    await page.routeWebSocket(/\/sothisai\/api\/eshell\/ws/, (ws) => {
      const server = ws.connectToServer();
      open.push({ page: ws, server });
    });
    await page.getByTestId('eshell-new').click();
    await page.locator('[data-testid=eshell-status][data-status=ready]').last().waitFor({ timeout: 15_000 });
    const text = page.locator('.xterm-helper-textarea').last();
    await text.focus();
    // A background job that prints 2 s later, across the drop: its output arrives on the new socket.
    await page.keyboard.type('echo before-$$; (sleep 2; echo printed-while-away) &\n');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(/before-\d+/);
    const pid = /before-(\d+)/.exec(await screen(page))![1];
    const sockets = open.length;
    const cut = open[open.length - 1]!;
    await Promise.all([cut.page.close(), cut.server.close()]);
    // Attached again by itself: a new socket, the same shell (same $$), the job's output.
    await expect.poll(() => open.length, { timeout: 20_000 }).toBeGreaterThan(sockets);
    await page.locator('[data-testid=eshell-status][data-status=ready]').last().waitFor({ timeout: 15_000 });
    await expect.poll(() => screen(page), { timeout: 15_000 }).toContain('printed-while-away');
    await text.focus();
    await page.keyboard.type('echo still-$$\n');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toContain(`still-${pid}`);
    await closeSessions(page);
    await page.context().close();
  }, 90_000);

  it('runs two sessions side by side in tabs, each its own shell', async () => {
    const { page } = await logInAs(browser, portal.url, 'demo', { language: 'zh-CN', at: '/eshell' });
    await page.getByTestId('eshell-new').click();
    await page.locator('[data-testid=eshell-status][data-status=ready]').last().waitFor({ timeout: 15_000 });
    await page.locator('.xterm-helper-textarea').last().focus();
    await page.keyboard.type('echo first-$$\n');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(/first-\d+/);
    const first = /first-(\d+)/.exec(await screen(page))![1];
    await page.getByTestId('eshell-new').click();
    await expect.poll(() => page.getByRole('tab').count(), { timeout: 10_000 }).toBe(2);
    await page.locator('[data-testid=eshell-status][data-status=ready]').last().waitFor({ timeout: 15_000 });
    const visible = page.locator('.xterm-rows').filter({ visible: true });
    await page.locator('.xterm-helper-textarea').last().focus();
    await page.keyboard.type('echo second-$$\n');
    await expect.poll(() => visible.innerText(), { timeout: 10_000 }).toMatch(/second-\d+/);
    const second = /second-(\d+)/.exec(await visible.innerText())![1];
    expect(second).not.toBe(first);
    // Back to the first tab: its own shell, its own output.
    await page.getByRole('tab').first().click();
    await expect.poll(() => visible.innerText(), { timeout: 10_000 }).toContain(`first-${first}`);
    await closeSessions(page);
    await page.context().close();
  }, 90_000);

  it('copies a selection and pastes from the clipboard as a terminal user expects', async () => {
    const { page } = await logInAs(browser, portal.url, 'demo', { language: 'zh-CN', at: '/eshell' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.url });
    await page.getByTestId('eshell-new').click();
    await page.locator('[data-testid=eshell-status][data-status=ready]').last().waitFor({ timeout: 15_000 });
    const text = page.locator('.xterm-helper-textarea').last();
    await text.focus();
    await page.keyboard.type('echo copyme$((6*7))word\n');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('copyme42word');
    // A double click selects the word the shell printed; Ctrl+Shift+C copies it (and sends nothing to the shell).
    const rows = page.locator('.xterm-rows > div').filter({ hasText: /^copyme42word\s*$/ });
    // xterm draws its own selection layer over the rows: the mouse at the word's place, not a click on the row.
    const box = (await rows.last().boundingBox())!;
    await page.mouse.dblclick(box.x + 20, box.y + box.height / 2);
    await page.keyboard.press('Control+Shift+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('copyme42word');
    // Ctrl+Shift+V pastes the clipboard into the shell as typed input.
    await page.evaluate(() => navigator.clipboard.writeText('echo pasted-$((40+1))'));
    await text.focus();
    await page.keyboard.press('Control+Shift+V');
    await page.keyboard.press('Enter');
    await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('pasted-41');
    await closeSessions(page);
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

  it('at 1440 px: the header is one toolbar row in both languages, with a session open', async () => {
    for (const language of ['en-US', 'zh-CN'] as const) {
      const { page, shot, errors } = await logInAs(browser, portal.url, 'demo', { language, at: '/eshell' });
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.getByTestId('eshell-new').click();
      await page
        .locator('[data-testid=eshell-status][data-status=ready]')
        .last()
        .waitFor({ timeout: 15_000 });
      await page.mouse.move(0, 0);
      // Each tool's middle (an input inside its affix wrapper starts lower than a button: same row, same middle).
      const top = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e) => {
            const r = e.getBoundingClientRect();
            return Math.round((r.top + r.bottom) / 2);
          });
      console.log(`header (${language}): ${await shot(`eshell-header-1440-${language}`)}`);
      // Before: the find-in-output box, its button and the font size wrapped onto a second row in English.
      const row = await top('[data-testid=eshell-new]');
      for (const selector of [
        '[data-testid=eshell-cluster]',
        '[data-testid=eshell-node]',
        '[data-testid=eshell-search]',
        '[data-testid=eshell-search-next]',
        '[data-testid=eshell-font]',
      ])
        expect({ selector, top: await top(selector) }).toEqual({ selector, top: row });
      // The narrower cluster select holds the centre's whole name (shown in full here; a longer one would end in an
      // ellipsis, with the whole name as its title).
      const centre = language === 'en-US' ? 'Hefei Advanced Computing Center' : '合肥先进计算中心';
      expect(await page.getByTestId('eshell-cluster').locator('[title]').first().getAttribute('title')).toBe(
        centre,
      );
      // The icon-only "find next" is named, and works from the keyboard: Enter in the box, then Tab and Enter.
      const next = page.getByRole('button', { name: language === 'en-US' ? 'Find next' : '查找下一个' });
      expect(await next.getAttribute('data-testid')).toBe('eshell-search-next');
      // The shell's prompt, before typing (what is typed ahead is echoed twice).
      await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(/\$\s*$/);
      await page.locator('.xterm-helper-textarea').focus();
      await page.keyboard.type('echo found-$((6*7))\n');
      await expect.poll(() => screen(page), { timeout: 10_000 }).toMatch(/^found-42\s*$/m);
      const search = page.getByRole('textbox', {
        name: language === 'en-US' ? 'Find in output' : '在输出中查找',
      });
      await search.fill('found-42');
      await search.press('Enter');
      const selected = () => page.locator('.xterm-selection div').count();
      await expect.poll(selected).toBeGreaterThan(0);
      await page.keyboard.press('Tab');
      expect(await next.evaluate((e) => e === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      // Its tooltip says what it does.
      await next.hover();
      await expect
        .poll(() => page.getByRole('tooltip').innerText())
        .toBe(language === 'en-US' ? 'Find next' : '查找下一个');
      console.log(`find next (${language}): ${await shot(`eshell-find-next-${language}`)}`);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(300);
      console.log(`header, found (${language}): ${await shot(`eshell-header-found-${language}`)}`);
      const found = await axeViolations(page, { exclude: ['.hpc-main-menu'] });
      expect(found.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target} ${n.summary}`) }))).toEqual(
        [],
      );
      expect(errors).toEqual([]);
      await page.context().close();
    }
  }, 90_000);

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

  /** demo logged in, a new session ready and its prompt shown, the terminal focused. */
  async function shellAtPrompt(language: 'zh-CN' | 'en-US') {
    const at = await logInAs(browser, portal.url, 'demo', { language, at: '/eshell' });
    await at.page.getByTestId('eshell-new').click();
    await at.page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
    await at.page.locator('.xterm-helper-textarea').focus();
    // After the prompt: what is typed before it is echoed by the terminal amid the login banner, as in any ssh.
    await expect.poll(() => screen(at.page), { timeout: 10_000 }).toMatch(/\$ *$/m);
    return at;
  }

  for (const [language, ended, exited, restart] of [
    ['zh-CN', '会话已结束：', 'Shell 已退出，退出码 3', '新建会话'],
    ['en-US', 'Session ended: ', 'The shell exited with status 3', 'Start a new session'],
  ] as const) {
    it(`says that the shell exited with its status, keeps its output, and opens a new session from the notice (${language})`, async () => {
      const { page, errors } = await shellAtPrompt(language);
      await page.keyboard.type('echo bye-$((6*7)); exit 3\n');
      await page.locator('[data-testid=eshell-status][data-status=ended]').waitFor({ timeout: 15_000 });
      // The status line and the notice in the page's language and punctuation; the output stays readable.
      expect(await page.getByTestId('eshell-status').innerText()).toBe(ended + exited);
      const notice = page.getByRole('alert').filter({ hasText: exited });
      await expect.poll(() => notice.count()).toBe(1);
      // A shell that exited, whatever its status, ended as sessions do: information, not a warning.
      expect(await notice.getAttribute('class')).toContain('ant-alert-info');
      expect(await notice.getByTestId('eshell-restart').innerText()).toBe(restart);
      expect(await screen(page)).toContain('bye-42');
      await screenshotter(page)(`eshell-ended-${language}`);
      // The notice's button opens a new shell in the same tab.
      await page.getByTestId('eshell-restart').click();
      await page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
      expect(await notice.count()).toBe(0);
      await closeSessions(page);
      expect(errors).toEqual([]);
      await page.context().close();
    }, 60_000);
  }

  for (const [language, lost] of [
    ['zh-CN', '与登录节点的连接已断开或无法建立（ssh 退出码 255）'],
    ['en-US', "The connection to the login node was lost or could not be made (ssh's status 255)"],
  ] as const) {
    it(`says that the connection was lost when the login node drops it, not that the shell exited 255 (${language})`, async () => {
      const { page, errors } = await shellAtPrompt(language);
      // The node's side of the connection dies (the shell's parent is demo's sshd session process): ssh exits 255.
      await page.keyboard.type('kill -9 $PPID\n');
      await page.locator('[data-testid=eshell-status][data-status=ended]').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('eshell-status').innerText()).toContain(lost);
      const notice = page.getByRole('alert').filter({ hasText: lost });
      await expect.poll(() => notice.count()).toBe(1);
      // The session broke rather than ended: a warning (endTone).
      expect(await notice.getAttribute('class')).toContain('ant-alert-warning');
      await screenshotter(page)(`eshell-lost-${language}`);
      await closeSessions(page);
      expect(errors).toEqual([]);
      await page.context().close();
    }, 60_000);
  }

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
  /**
   * The shell's `efile` command (issue 26 §2) against the all-in-one as `npm run start:cluster` runs it: unix mode,
   * and the scheduler's cluster served from the real file system, so that E-File and the login node see the same
   * files (in the single-mode portal above, E-File's homes live under its data folder). `sshd.start` installed the
   * command at its system path.
   */
  const missing = isRoot ? schedulerMissing() : 'not root';
  if (isRoot && missing) console.warn(`SKIPPED the efile command in E-Shell: ${missing}`);
  describe.skipIf(missing !== null)("the shell's efile command", () => {
    const EFILE = sshd.EFILE_COMMAND;
    const HOME = '/public/home/demo';
    let unixPortal: RunningPortal;
    let dataDir: string;
    let work: string;
    let madeDemoHome = false;
    const bytes = crypto.randomBytes(64 * 1024 + 7);

    beforeAll(async () => {
      // E-File's home of demo on the real file system (CI's start:cluster made it; else made here as useradd -m).
      if (!fs.existsSync(HOME)) {
        fs.mkdirSync(HOME, { recursive: true, mode: 0o700 });
        fs.chownSync(HOME, idOf('demo'), idOf('demo'));
        madeDemoHome = true;
      }
      // A folder of this run in it, with a space and Chinese in its name.
      work = path.join(HOME, `efile 结果-${crypto.randomBytes(3).toString('hex')}`);
      fs.mkdirSync(work, { mode: 0o755 });
      fs.writeFileSync(path.join(work, 'results.csv'), bytes);
      for (const p of [work, path.join(work, 'results.csv')]) fs.chownSync(p, idOf('demo'), idOf('demo'));
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-eshell-unix-'));
      fs.chmodSync(dataDir, 0o711);
      unixPortal = await startPortal({
        ...sshdEnv,
        ESHELL_CLUSTER_ID: '11250',
        EFILE_USER_MODE: 'unix',
        JOBS_CLUSTER_ID: '11250',
        DATA_DIR: dataDir,
      });
    }, 60_000);

    afterAll(async () => {
      await unixPortal?.stop();
      if (work) fs.rmSync(work, { recursive: true, force: true });
      if (madeDemoHome) fs.rmSync(HOME, { recursive: true, force: true });
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** A logged-in page with a shell tab opened in the run's folder (E-File's "open a shell here" address). */
    async function shellInWork(language: 'zh-CN' | 'en-US') {
      const visit = await logInAs(browser, unixPortal.url, 'demo', {
        language,
        at: `/eshell?${new URLSearchParams({ cluster: '11250', cwd: work }).toString()}`,
        context: { acceptDownloads: true },
      });
      await visit.page.setViewportSize({ width: 1440, height: 900 });
      await visit.page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
      // The shell's prompt, before typing (what is typed ahead is echoed twice).
      await expect.poll(() => screen(visit.page), { timeout: 10_000 }).toMatch(/\$\s*$/);
      const downloads: string[] = [];
      visit.page.on('download', (d) => downloads.push(d.suggestedFilename()));
      const run = async (command: string) => {
        await visit.page.locator('.xterm-helper-textarea').focus();
        await visit.page.keyboard.type(`${command}\n`);
      };
      return { ...visit, run, downloads };
    }
    const prompt = (page: Page) => page.getByTestId('eshell-efile-prompt');
    /** After an answer the page takes no request of that tab for a moment (the gate's gap, 1.5 s). */
    const pastTheGap = (page: Page) => page.waitForTimeout(1_700);

    it('efile open asks first, then E-File shows the folder; get downloads the file; nothing else (en-US)', async () => {
      const { page, ctx, run, downloads, shot, errors } = await shellInWork('en-US');
      await run(`${EFILE} open .`);
      await prompt(page).waitFor({ timeout: 10_000 });
      expect(await prompt(page).getAttribute('data-verb')).toBe('open');
      expect(await page.getByTestId('eshell-efile-path').innerText()).toBe(work);
      await expect
        .poll(() => prompt(page).innerText())
        .toContain('The shell asks to open this folder in E-File');
      // The prompt never takes the keyboard: what is typed goes to the shell.
      expect(await page.evaluate(() => document.activeElement?.className ?? '')).toContain(
        'xterm-helper-textarea',
      );
      await page.mouse.move(0, 0);
      console.log(`efile prompt (en-US): ${await shot('eshell-efile-prompt-en-US')}`);
      const [efilePage] = await Promise.all([
        ctx.waitForEvent('page'),
        page.getByTestId('eshell-efile-accept').click(),
      ]);
      await efilePage.waitForURL((u) => u.pathname === '/efile');
      const at = new URL(efilePage.url()).searchParams;
      expect([at.get('cluster'), at.get('path')]).toEqual(['11250', work]);
      await nameLink(efilePage, 'results.csv').waitFor({ timeout: 20_000 });
      await efilePage.close();
      await prompt(page).waitFor({ state: 'detached' });

      // Opted in through PATH, as the page's help says; the download comes through the page with the file's bytes.
      await pastTheGap(page);
      await run(`export PATH="$PATH:${path.dirname(EFILE)}"; efile get results.csv`);
      await prompt(page).waitFor({ timeout: 10_000 });
      expect(await prompt(page).getAttribute('data-verb')).toBe('get');
      expect(await page.getByTestId('eshell-efile-path').innerText()).toBe(path.join(work, 'results.csv'));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('eshell-efile-accept').click(),
      ]);
      expect(download.suggestedFilename()).toBe('results.csv');
      expect(fs.readFileSync(await download.path()).equals(bytes)).toBe(true);
      await prompt(page).waitFor({ state: 'detached' });

      // A hostile program prints the sequence for a file outside the user's E-File: E-File refuses, nothing comes.
      await pastTheGap(page);
      downloads.length = 0;
      await run(`printf '\\033]7337;hpc-efile;get;%s\\007' ${Buffer.from('/etc/shadow').toString('hex')}`);
      await prompt(page).waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('eshell-efile-path').innerText()).toBe('/etc/shadow');
      await page.getByTestId('eshell-efile-accept').click();
      const refusal = page.getByTestId('eshell-efile-error');
      await refusal.waitFor({ timeout: 10_000 });
      console.log(`efile refusal (en-US): ${await shot('eshell-efile-refused-en-US')}`);
      expect(await refusal.innerText()).toMatch(/\/etc\/shadow could not be downloaded\n+\S/);
      await page.waitForTimeout(1_000);
      expect(downloads).toEqual([]);
      await page.getByTestId('eshell-efile-dismiss').click();
      await refusal.waitFor({ state: 'detached' });

      // Other verbs, addresses and junk of the same number are nothing; a loop of requests is one prompt.
      await pastTheGap(page);
      await run(
        `printf '\\033]7337;hpc-efile;url;%s\\007\\033]7337;https://example.com/\\007\\033]7337;hpc-efile;open;zz\\007' ${Buffer.from('/tmp').toString('hex')}; echo junk-$((6*7))`,
      );
      // (The typed line holds the words of the command; its result is what the shell printed.)
      await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('junk-42');
      await page.waitForTimeout(500);
      expect(await prompt(page).count()).toBe(0);
      await run(`for i in $(seq 200); do efile open . 2>/dev/null; done; echo loop-$((6*7))`);
      await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('loop-42');
      await page.waitForTimeout(500);
      expect(await prompt(page).count()).toBe(1);
      await page.getByTestId('eshell-efile-ignore').click();
      await prompt(page).waitFor({ state: 'detached' });

      // A reload replays the scroll-back, with all those sequences in it: none asks again.
      await page.reload();
      await page.locator('[data-testid=eshell-status][data-status=ready]').waitFor({ timeout: 15_000 });
      await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('loop-42');
      await page.waitForTimeout(1_500);
      expect(await prompt(page).count()).toBe(0);
      // A new request after the reload asks again.
      await run(`efile open .`);
      await prompt(page).waitFor({ timeout: 10_000 });
      expect(downloads).toEqual([]);
      // The one failed request is efile's refusal of /etc/shadow (403), which the browser logs.
      expect(errors).toEqual([
        'console: Failed to load resource: the server responded with a status of 403 (Forbidden)',
      ]);
      await ctx.close();
    }, 120_000);

    it('asks in Chinese, downloads after the click, shows E-File’s refusal in Chinese, and is axe-clean (zh-CN)', async () => {
      const { page, ctx, run, downloads, shot } = await shellInWork('zh-CN');
      await run(`${EFILE} get results.csv`);
      await prompt(page).waitFor({ timeout: 10_000 });
      await expect.poll(() => prompt(page).innerText()).toContain('终端请求下载此文件');
      expect(await page.getByTestId('eshell-efile-accept').innerText()).toMatch(/下\s*载/);
      await page.mouse.move(0, 0);
      // Its buttons are disabled for their first 0.6 s (no contrast rule for those); checked once they are armed and
      // their colours have settled.
      await expect.poll(() => page.getByTestId('eshell-efile-accept').isEnabled()).toBe(true);
      await page.waitForTimeout(500);
      console.log(`efile prompt (zh-CN): ${await shot('eshell-efile-prompt-zh-CN')}`);
      const found = await axeViolations(page, { exclude: ['.hpc-main-menu'] });
      expect(found.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target} ${n.summary}`) }))).toEqual(
        [],
      );
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('eshell-efile-accept').click(),
      ]);
      expect(fs.readFileSync(await download.path()).equals(bytes)).toBe(true);

      await pastTheGap(page);
      downloads.length = 0;
      await run(
        `printf '\\033]7337;hpc-efile;get;%s\\007' ${Buffer.from('/public/home/lisi/x').toString('hex')}`,
      );
      await prompt(page).waitFor({ timeout: 10_000 });
      await page.getByTestId('eshell-efile-accept').click();
      const refusal = page.getByTestId('eshell-efile-error');
      await refusal.waitFor({ timeout: 10_000 });
      expect(await refusal.innerText()).toMatch(/无法下载 \/public\/home\/lisi\/x\n+[^\n]*[\u4e00-\u9fff]/);
      await page.waitForTimeout(1_000);
      expect(downloads).toEqual([]);
      console.log(`efile refusal (zh-CN): ${await shot('eshell-efile-refused-zh-CN')}`);

      // The page's help says how to opt in.
      await page.getByTestId('eshell-efile-help-button').click();
      const help = page.getByTestId('eshell-efile-help');
      await help.waitFor();
      expect(await help.innerText()).toContain(`export PATH="$PATH:${path.dirname(EFILE)}"`);
      console.log(`efile help (zh-CN): ${await shot('eshell-efile-help-zh-CN')}`);
      await ctx.close();
    }, 120_000);
  });
});
