import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, efileApi } from '@hpc/api-client';
import { efileHelpers, message, nameLink, select, useEfileEnv } from './support/efile-page';
import { screenshotter } from './support/browser';
import { logInAs } from './support/login';
import { slowLink, type SlowLink } from './support/slow-link';

const HOME = '/public/home/demo';
/** The same home folder relative to a centre's root on disk. */
const HOME_DIR = 'public/home/demo';

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * Moving bytes in and out of E-File past the happy path: an upload deleted while its first chunk travels, a failed
 * chunk retried, the 1000-file limit, a zip of a selection too long for an address, the Linux commands (working,
 * and refused with the portal's message), and a copy cancelled when the user leaves.
 */
describe('E-File transfers in the browser', () => {
  const env = useEfileEnv('efile-transfers');
  const { host, loggedIn, refresh } = efileHelpers(env);
  const chooseInTree = async (page: Page, folder: string) => {
    const tree = page.getByTestId('efile-tree');
    await tree.locator('.ant-tree-treenode').filter({ hasText: HOME }).locator('.ant-tree-switcher').click();
    await tree
      .locator('.ant-tree-title')
      .filter({ hasText: new RegExp(`^${folder}$`) })
      .click();
  };
  /** A path on the centre's disk, from its parts below the centre's root. */
  const hostOf = (...p: string[]) => path.join(env.portal.dataDir, 'clusters', '11250', ...p);
  const links: SlowLink[] = [];
  afterAll(async () => {
    for (const l of links) await l.close();
  });

  it('deleting an upload whose first chunk is still on its way removes its partial file', async () => {
    // 64 KB/s up: the first 1 MiB chunk needs ~16 s, so the row is deleted while it is still being sent.
    const link = await slowLink(env.portal.url, 64 * 1024);
    links.push(link);
    const { page, ctx, shot } = await logInAs(env.browser, link.url, 'demo', { at: '/efile' });
    await page.getByTestId('efile-name').first().waitFor();
    const file = path.join(env.work, 'slow.bin');
    fs.writeFileSync(file, crypto.randomBytes(4 * 1024 * 1024));
    await page.getByTestId('efile-input-files').setInputFiles(file);

    const partials = () =>
      fs.readdirSync(hostOf(HOME_DIR)).filter((n) => n.includes('slow.bin') && n.endsWith('.efile-part'));
    // The server has begun the upload (its hidden partial file exists), no chunk has finished.
    await expect.poll(partials, { timeout: 30_000 }).toHaveLength(1);
    const row = page.locator('.efile-upload-panel tr.ant-table-row').filter({ hasText: 'slow.bin' });
    // Not finished: "waiting" until a chunk is through, whatever the browser has sent of the first one.
    expect(['waiting', 'play']).toContain(
      await row.getByTestId('efile-upload-status').getAttribute('data-status'),
    );
    await shot('efile-upload-slow-zh');

    // A dialog opened while the panel shows covers it with its overlay like the rest of the page: the panel's
    // buttons take no click meant for the dialog's world, and the dialog is not drawn under the panel.
    await select(page, 'data.csv');
    await page.getByTestId('efile-action-rename').click();
    await page.locator('.ant-modal-mask').waitFor();
    const box = (await page.locator('.efile-upload-panel').boundingBox())!;
    const onTop = await page.evaluate(
      ([x, y]) => {
        const el = document.elementFromPoint(x!, y!);
        return el?.closest('.efile-upload-panel') ? 'panel' : 'overlay';
      },
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(onTop).toBe('overlay');
    await shot('efile-upload-under-dialog-zh');
    await page.keyboard.press('Escape');
    await page.locator('.ant-modal-mask').waitFor({ state: 'detached' });

    const cleanup = page.waitForResponse((r) => r.url().includes('/upload/deletePartial.action'));
    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await message(page, '已删除');
    expect((await cleanup).ok()).toBe(true);
    expect(partials()).toEqual([]);
    expect(fs.existsSync(hostOf(HOME_DIR, 'slow.bin'))).toBe(false);
    await ctx.close();
  });

  it.each([
    ['en-US', 'Retry'],
    ['zh-CN', '重试'],
  ] as const)('retries a failed upload from its stored chunks (%s)', async (language, retry) => {
    const { page, ctx, shot } = await loggedIn(language);
    const file = path.join(env.work, `retry-${language}.bin`);
    fs.writeFileSync(file, crypto.randomBytes(5 * 1024 * 1024 + 123));
    // The third chunk sent fails once with a server error; everything else goes through.
    let posts = 0;
    await page.route('**/chunkUpload.action*', (route) =>
      route.request().method() === 'POST' && ++posts === 3
        ? route.fulfill({ status: 500, body: 'boom' })
        : route.continue(),
    );
    await page.getByTestId('efile-input-files').setInputFiles(file);
    const status = page.getByTestId('efile-upload-status').first();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('error');
    await shot(`efile-upload-retry-${language}`);
    await page.getByRole('button', { name: retry }).click();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('success');
    expect(sha(host(`${HOME}/retry-${language}.bin`))).toBe(sha(file));
    // Chunks stored before the failure were not sent again: 6 chunks, one failure, at most 3 in flight then.
    expect(posts).toBeLessThanOrEqual(6 + 3);
    await ctx.close();
  });

  it('refuses a folder of more than 1000 files for download and for upload, pointing to fast transfer', async () => {
    const { page, ctx, shot } = await loggedIn();
    const remote = host(`${HOME}/thousand`);
    fs.mkdirSync(remote);
    for (let i = 0; i <= 1000; i++) fs.writeFileSync(path.join(remote, `f${i}.txt`), '');
    await refresh(page);
    await select(page, 'thousand');
    await page.getByTestId('efile-action-download').click();
    await message(page, '文件数超过 1000 个，请使用快传客户端或 Linux 命令下载');
    await shot('efile-download-too-many-zh');

    const local = path.join(env.work, 'many');
    fs.mkdirSync(local);
    for (let i = 0; i <= 1000; i++) fs.writeFileSync(path.join(local, `m${i}.txt`), 'x');
    await page.getByTestId('efile-input-folder').setInputFiles(local);
    await message(page, '文件夹“many”中的文件超过 1000 个，请打包压缩后上传或使用快传客户端');
    expect(fs.existsSync(host(`${HOME}/many`))).toBe(false);
    await ctx.close();
  });

  it('zips a selection whose paths are too long for the address through a download key', async () => {
    const { page, ctx } = await loggedIn();
    fs.mkdirSync(host(`${HOME}/long`));
    const names = Array.from(
      { length: 20 },
      (_, i) => `${String(i).padStart(2, '0')}-${'n'.repeat(100)}.txt`,
    );
    for (const n of names) fs.writeFileSync(host(`${HOME}/long/${n}`), n);
    await page.goto(`/efile?path=${encodeURIComponent(`${HOME}/long`)}`);
    await nameLink(page, names[19]!).waitFor();
    await page.locator('.efile-table td').nth(3).click();
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.locator('.efile-table tr.efile-row-selected').count()).toBe(20);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('efile-action-download').click(),
    ]);
    const url = new URL(download.url());
    expect(url.pathname).toBe('/efile/11250/multiDownload.action');
    expect(url.searchParams.get('downKey')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.getAll('paths')).toEqual([]);
    const zip = path.join(env.work, 'long.zip');
    await download.saveAs(zip);
    const listed = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n').sort();
    expect(listed).toEqual(names);
    await ctx.close();
  });

  it('copies the Linux upload and download commands from the page and they work with the real curl', async () => {
    const { page, ctx } = await loggedIn();
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.portal.url });
    fs.mkdirSync(host(`${HOME}/linux-in`));
    fs.writeFileSync(host(`${HOME}/linux-in/payload.bin`), crypto.randomBytes(3_000_000));
    await refresh(page);
    await select(page, 'linux-in');
    await page.getByTestId('efile-action-share').click();
    await page.getByRole('tab', { name: 'Linux 命令' }).click();
    const linux = page.getByTestId('efile-linux');
    const copied = async (i: number) => {
      const box = linux.locator('.hpc-command').nth(i);
      await box.locator('.hpc-command-copy .ant-typography-copy').click();
      const text = await page.evaluate(() => navigator.clipboard.readText());
      expect(text).toBe(await box.locator('code').textContent());
      return text;
    };
    const bash = (cmd: string, cwd: string) =>
      execFileSync('/bin/bash', ['-c', cmd], {
        cwd,
        env: { ...process.env, PATH: '/usr/bin:/bin' },
      }).toString();

    // Upload into the folder: one file, then a folder through tar.
    await linux.locator('input').fill(`${HOME}/linux-in`);
    await linux.getByRole('button', { name: '生成上传命令' }).click();
    await linux.locator('.hpc-command').nth(1).waitFor();
    // Each block says what it is for and what its FILE or DIR stands for.
    await linux.getByText('上传文件：把 FILE 换成它在您机器上的路径').waitFor();
    await linux.getByText('上传文件夹：把 DIR 换成它在您机器上的路径').waitFor();
    const [upFile, upDir] = [await copied(0), await copied(1)];
    const local = path.join(env.work, 'up.bin');
    fs.writeFileSync(local, crypto.randomBytes(2_000_000));
    bash(upFile.replace('curl ', '/usr/bin/curl -s ').replace('FILE', `'${local}'`), env.work);
    expect(sha(host(`${HOME}/linux-in/up.bin`))).toBe(sha(local));
    const tree = path.join(env.work, 'up-tree');
    fs.mkdirSync(path.join(tree, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(tree, 'sub/a.txt'), 'tar upload\n');
    fs.writeFileSync(path.join(tree, 'b.bin'), crypto.randomBytes(500_000));
    bash(upDir.replace('curl ', '/usr/bin/curl -s ').replaceAll('DIR', `'${tree}'`), env.work);
    for (const rel of ['sub/a.txt', 'b.bin']) {
      expect(sha(host(`${HOME}/linux-in/up-tree/${rel}`))).toBe(sha(path.join(tree, rel)));
    }

    // Download: the folder (with what was just uploaded) as a zip, checked file by file.
    await linux.getByRole('button', { name: '生成下载命令' }).click();
    await linux.locator('.hpc-command').nth(2).waitFor();
    await linux.getByText('打包为一个 zip 下载到当前目录').waitFor();
    await screenshotter(page)('efile-linux-commands-zh');
    const down = await copied(2);
    // The token only in the here-document curl reads its config from: never an argument `ps` would show.
    expect(down).toMatch(
      /^curl -fS -K \/dev\/fd\/3 -o 'linux-in\.zip' 'http:\/\/127\.0\.0\.1:\d+\/efile\/11250\/linux\/get' 3<<'HPC_TOKEN'\nheader = "x-linux-token: [\w-]+"\nheader = "accept-language: zh-CN"\nHPC_TOKEN$/,
    );
    const dl = fs.mkdtempSync(path.join(env.work, 'dl-'));
    bash(down.replace(/^curl /, '/usr/bin/curl -s '), dl);
    execFileSync('unzip', ['-q', 'linux-in.zip'], { cwd: dl });
    for (const rel of ['payload.bin', 'up.bin', 'up-tree/sub/a.txt', 'up-tree/b.bin']) {
      expect(sha(path.join(dl, 'linux-in', rel))).toBe(sha(host(`${HOME}/linux-in/${rel}`)));
    }
    await ctx.close();
  });

  it('lets the Linux upload command print the portal’s message when it is refused (same name)', async () => {
    const { page, ctx } = await logInAs(env.browser, env.portal.url, 'demo', { at: '/efile' });
    await page.getByTestId('efile-name').first().waitFor();
    fs.mkdirSync(hostOf(HOME_DIR, 'linux-dup'));
    fs.writeFileSync(hostOf(HOME_DIR, 'linux-dup', 'same.txt'), 'already here');
    await page.getByTestId('efile-refresh').click();
    await nameLink(page, 'linux-dup').waitFor();
    await select(page, 'linux-dup');
    await page.getByTestId('efile-action-share').click();
    await page.getByRole('tab', { name: 'Linux 命令' }).click();
    const linux = page.getByTestId('efile-linux');
    await linux.locator('input').fill(`/${HOME_DIR}/linux-dup`);
    await linux.getByRole('button', { name: '生成上传命令' }).click();
    const command = (await linux.locator('.hpc-command code').first().textContent())!;

    const local = path.join(env.work, 'same.txt');
    fs.writeFileSync(local, 'a different file of the same name');
    const run = spawnSync('/bin/bash', ['-c', command.replace('FILE', `'${local}'`)], {
      cwd: env.work,
      env: { ...process.env, PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
    });
    // The command still fails (a script can tell), and the user reads why, not only "curl: (22) … 409", in the
    // language of the page that made the command.
    expect(run.status).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('已存在同名文件');
    expect(fs.readFileSync(hostOf(HOME_DIR, 'linux-dup', 'same.txt'), 'utf8')).toBe('already here');
    await ctx.close();
  });

  it('cancels a running copy on the server when the user leaves the site', async () => {
    const { page, ctx } = await loggedIn();
    // A large folder (sparse files: instant to make, real bytes to copy) and an empty target.
    const big = host(`${HOME}/bigdir`);
    fs.mkdirSync(big);
    // 16 GiB: the copy must still run when the page leaves after its walk through the menu. 2 GiB was ~10 s on a
    // slow disk, but a host whose disk writes 2.8 GB/s finished it first (npm test, 2026-11-29). Only what is
    // written before the cancel takes disk space, and the cancel removes it.
    const part = 4 * 1024 ** 3;
    for (let i = 0; i < 4; i++) {
      fs.writeFileSync(path.join(big, `part${i}.bin`), '');
      fs.truncateSync(path.join(big, `part${i}.bin`), part);
    }
    fs.mkdirSync(host(`${HOME}/dest`));
    await refresh(page);
    await select(page, 'bigdir');
    await page.getByTestId('efile-action-copy').click();
    await chooseInTree(page, 'dest');
    const started = page.waitForResponse((r) => r.url().includes('/copy.action'));
    await page.locator('.ant-modal-footer .ant-btn-primary').last().click();
    const res = await started;
    const token = (await res.request().allHeaders()).token!;
    const { operationId } = ((await res.json()) as { data: { operationId: string } }).data;
    await page.getByTestId('efile-operation').waitFor();
    // The dialog is closed; the running copy stays listed with its progress and cancel when the user goes to
    // another page of the portal and comes back (issue 25 §3.11).
    await page.locator('.hpc-main-menu').getByRole('link', { name: '首页' }).click();
    await page.waitForURL((u) => u.pathname === '/main-page');
    await page.locator('.hpc-main-menu').getByRole('link', { name: 'E-File' }).click();
    const back = page.getByTestId('efile-operation');
    await back.waitFor();
    expect(await back.getByRole('button').count()).toBeGreaterThan(0);

    // What became of the cancel the page sends as it leaves, for the message if the copy does not stop (a CI run
    // once saw it still running 30 s later, and could not tell whether the request had been sent).
    const cancelSeen: string[] = [];
    const isCancel = (u: string) => u.includes('/operationCancel.action');
    ctx.on('request', (r) => isCancel(r.url()) && cancelSeen.push('sent'));
    ctx.on('requestfailed', (r) => isCancel(r.url()) && cancelSeen.push(`failed: ${r.failure()?.errorText}`));
    ctx.on('response', (r) => isCancel(r.url()) && cancelSeen.push(`answered ${r.status()}`));
    await page.goto('about:blank');
    // Asked from Node with the page's own cluster token: the page is gone, the copy it started goes on.
    const efile = efileApi(
      new ApiClient({ baseUrl: `${env.portal.url}/efile/11250`, headers: () => ({ token }) }),
      '11250',
    );
    const progress = () => efile.operationProgress(operationId);
    // A write already handed to the disk finishes before the copy stops: allow for a busy disk.
    const seen: string[] = [];
    const until = Date.now() + 30_000;
    let p = await progress();
    while (p.status === 'running' && Date.now() < until) {
      seen.push(`${p.status} ${p.bytesDone}`);
      await new Promise((r) => setTimeout(r, 500));
      p = await progress();
    }
    expect(
      p.status,
      `progress: ${seen.slice(-6).join(', ')}; the cancel: ${cancelSeen.join(', ') || 'not seen'}`,
    ).toBe('cancelled');
    expect(p.bytesTotal).toBe(4 * part);
    expect(p.bytesDone).toBeLessThan(p.bytesTotal);
    // Nothing under its final name, and the hidden temp copy is gone too.
    await expect.poll(() => fs.readdirSync(host(`${HOME}/dest`))).toEqual([]);
    await ctx.close();
  });
});
