import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
// Asynchronous on purpose: the server under test runs in this process, a blocking spawn would deadlock it.
const sh = (cmd: string, cwd: string) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn('/bin/bash', ['-c', cmd], { cwd });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });

describe('Linux commands with the real curl', () => {
  let h: Harness;
  let token: string;
  let base: string;
  let now = Date.now();
  let local: string;

  beforeAll(async () => {
    h = await makeHarness({ now: () => now });
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    local = path.join(h.dir, 'local');
    fs.mkdirSync(local + '/实验/sub', { recursive: true });
    fs.writeFileSync(local + '/数据 1.bin', crypto.randomBytes(3 * 1024 * 1024 + 17));
    fs.writeFileSync(local + '/实验/a.txt', 'alpha');
    fs.writeFileSync(local + '/实验/sub/b.bin', crypto.randomBytes(100_000));
    fs.symlinkSync('/etc/passwd', local + '/实验/evil-link');
  });
  afterAll(() => h.close());

  const commands = async (url: string, init?: RequestInit) => {
    const r = await fetch(base + url, { ...init, headers: { token, ...(init?.headers ?? {}) } });
    return (await r.json()) as {
      code: string;
      msg: string;
      data: { token: string; commands: { kind: string; command: string }[]; expiresAt: number };
    };
  };

  it('needs a target path', async () => {
    const r = await commands('/linuxUpload.action');
    expect(r).toMatchObject({ code: '1003', msg: 'Please enter the upload file or folder path' });
  });

  it('a folder that is not there: 1024 (spec §8), and nothing issued', async () => {
    expect(await commands('/linuxUpload.action?path=/public/home/demo/no-such')).toMatchObject({
      code: '1024',
    });
  });

  it('uploads a file and a folder (tar stream, links dropped) and downloads them back', async () => {
    const up = await commands('/linuxUpload.action?path=/public/home/demo');
    expect(up.code).toBe('0');
    const end = new Date(now);
    end.setHours(23, 59, 59, 999);
    expect(up.data.expiresAt).toBe(end.getTime());
    const file = up.data.commands
      .find((c) => c.kind === 'file')!
      .command.replace('FILE', `'${local}/数据 1.bin'`);
    const r1 = await sh(file, local);
    expect(r1.status, r1.stderr).toBe(0);
    expect(sha(h.home + '/数据 1.bin')).toBe(sha(local + '/数据 1.bin'));
    expect((await sh(file, local)).status).toBe(22);
    const folder = up.data.commands
      .find((c) => c.kind === 'folder')!
      .command.replaceAll('DIR', `'${local}/实验'`);
    const r2 = await sh(folder, local);
    expect(r2.status, r2.stderr).toBe(0);
    expect(JSON.parse(r2.stdout).data).toMatchObject({ files: 2, skipped: ['实验/evil-link'] });
    expect(sha(h.home + '/实验/sub/b.bin')).toBe(sha(local + '/实验/sub/b.bin'));
    expect(fs.existsSync(h.home + '/实验/evil-link')).toBe(false);
    expect(fs.readdirSync(h.home).filter((n) => n.includes('efile-part'))).toEqual([]);

    const down = await commands('/fastrans/linuxDownload.action', {
      method: 'POST',
      headers: FORM,
      body: form({ paths: ['/public/home/demo/数据 1.bin'] }),
    });
    const out = path.join(h.dir, 'out');
    fs.mkdirSync(out);
    const r3 = await sh(down.data.commands[0]!.command, out);
    expect(r3.status, r3.stderr).toBe(0);
    expect(sha(out + '/数据 1.bin')).toBe(sha(local + '/数据 1.bin'));
    const zip = await commands('/fastrans/linuxDownload.action', {
      method: 'POST',
      headers: FORM,
      body: form({ path: '/public/home/demo/实验' }),
    });
    expect((await sh(zip.data.commands[0]!.command, out)).status).toBe(0);
    execFileSync('unzip', ['-q', '实验.zip'], { cwd: out });
    expect(sha(out + '/实验/sub/b.bin')).toBe(sha(local + '/实验/sub/b.bin'));
  });

  it("keeps the token off every command line: curl gets it from the shell's here-document", async () => {
    // curl as the commands run it, wrapped to write down its arguments: what `ps` shows every local account.
    const bin = path.join(h.dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(
      path.join(bin, 'curl'),
      `#!/bin/sh\nprintf '%s\\n' "$0" "$@" >> '${h.dir}/argv.txt'\nexec /usr/bin/curl "$@"\n`,
      { mode: 0o755 },
    );
    const withWrapper = (cmd: string) => `PATH='${bin}':"$PATH"; ${cmd}`;
    const up = await commands('/linuxUpload.action?path=/public/home/demo');
    const down = await commands('/fastrans/linuxDownload.action', {
      method: 'POST',
      headers: FORM,
      body: form({ paths: ['/public/home/demo/实验'] }),
    });
    const out = path.join(h.dir, 'out-argv');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'argv-test.txt'), 'argv test');
    const run = [
      up.data.commands.find((c) => c.kind === 'file')!.command.replace('FILE', `'${out}/argv-test.txt'`),
      up.data.commands.find((c) => c.kind === 'folder')!.command.replaceAll('DIR', `'${local}/实验'`),
      down.data.commands[0]!.command,
    ];
    for (const cmd of run) {
      // POSIX sh (dash) as well as bash: the here-document is the shell's, not bash's alone.
      for (const shell of ['/bin/sh', '/bin/bash']) {
        const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
          const p = spawn(shell, ['-c', withWrapper(cmd)], { cwd: out });
          let stderr = '';
          p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          p.on('close', (status) => resolve({ status, stderr }));
        });
        // The file upload's second run meets the first's file: 22 (a refusal), still a call that carried the token.
        expect([0, 22], `${shell}: ${cmd.split('\n')[0]} ${r.stderr}`).toContain(r.status);
      }
    }
    expect(fs.readFileSync(path.join(h.home, 'argv-test.txt'), 'utf8')).toBe('argv test');
    const argv = fs.readFileSync(path.join(h.dir, 'argv.txt'), 'utf8');
    expect(argv.split('\n').filter((l) => l === '/dev/fd/3')).toHaveLength(6);
    for (const token of [up.data.token, down.data.token]) expect(argv).not.toContain(token);
  });

  it('says a refusal in the language of the page that made the command', async () => {
    const file = path.join(h.dir, 'lang-test.txt');
    fs.writeFileSync(file, 'first');
    for (const [lang, text] of [
      ['zh-CN', '已存在同名文件'],
      ['en-US', 'A file with the same name exists'],
    ] as const) {
      const up = await commands('/linuxUpload.action?path=/public/home/demo', {
        headers: { 'accept-language': lang },
      });
      const cmd = up.data.commands.find((c) => c.kind === 'file')!.command.replace('FILE', `'${file}'`);
      if (lang === 'zh-CN') expect((await sh(cmd, h.dir)).status).toBe(0);
      const again = await sh(cmd, h.dir);
      expect([again.status, again.stdout]).toEqual([22, expect.stringContaining(text)]);
    }
  });

  it('hands out a user token for a folder that uploads into it and downloads from it, today only; not outside', async () => {
    const ask = async (p: string) =>
      (await (
        await fetch(base + '/getUserToken.action', {
          method: 'POST',
          headers: { token, ...FORM },
          body: form({ path: p }),
        })
      ).json()) as { code: string; data: { token: string; clusterUserName: string; expiresAt: number } };
    const r = await ask('/public/home/demo');
    expect(r.code).toBe('0');
    expect(r.data.clusterUserName).toBe('demo');
    const end = new Date(now);
    end.setHours(23, 59, 59, 999);
    expect(r.data.expiresAt).toBe(end.getTime());
    const put = await fetch(`${base}/linux/put/token-put.txt`, {
      method: 'PUT',
      body: 'via token',
      headers: { [LINUX_TOKEN_HEADER]: r.data.token },
    });
    expect(put.status).toBe(200);
    expect(fs.readFileSync(h.home + '/token-put.txt', 'utf8')).toBe('via token');
    const get = await fetch(`${base}/linux/get`, { headers: { [LINUX_TOKEN_HEADER]: r.data.token } });
    expect([get.status, get.headers.get('content-type')]).toEqual([200, 'application/zip']);
    await get.arrayBuffer();
    expect((await ask('/public/home/other')).code).toBe('1030');
  });

  it('refuses a hostile tar (absolute, .. and links) and a command from yesterday', async () => {
    const up = await commands('/linuxUpload.action?path=/public/home/demo');
    const evil = path.join(h.dir, 'evil');
    fs.mkdirSync(evil + '/x', { recursive: true });
    fs.writeFileSync(evil + '/x/ok.txt', 'ok');
    const tarFile = path.join(h.dir, 'evil.tar');
    execFileSync('tar', ['-cf', tarFile, '-C', evil, 'x/ok.txt']);
    execFileSync('tar', ['-rf', tarFile, '-P', '--transform', 's,^,../../,', '-C', evil, 'x/ok.txt']);
    execFileSync('tar', ['-rf', tarFile, '-P', `${evil}/x/ok.txt`]);
    const url = up.data.commands.find((c) => c.kind === 'folder')!.command.match(/'(http[^']+)'/)![1]!;
    expect((await sh(`curl -fsS -T '${tarFile}' '${url}'`, h.dir)).status, 'no token, no upload').toBe(22);
    const r = await sh(`curl -fsS -H 'x-linux-token: ${up.data.token}' -T '${tarFile}' '${url}'`, h.dir);
    expect(r.status, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout).data;
    expect(res.files).toBe(1);
    expect(res.skipped).toHaveLength(2);
    expect(fs.readFileSync(h.home + '/x/ok.txt', 'utf8')).toBe('ok');
    expect(fs.existsSync(path.join(h.fsRoot, 'public/x'))).toBe(false);

    now = Date.now() - 86_400_000;
    const old = await commands('/linuxUpload.action?path=/public/home/demo');
    now = Date.now();
    const cmd = old.data.commands
      .find((c) => c.kind === 'file')!
      .command.replace('FILE', `'${evil}/x/ok.txt'`);
    expect((await sh(cmd, h.dir)).status).toBe(22);
    const acct = await fetch(base + '/linuxUpload.action?path=/public/home/demo', {
      headers: { token: await h.token({ exp_acct: now + 60_000 }) },
    });
    expect(((await acct.json()) as { data: { expiresAt: number } }).data.expiresAt).toBe(now + 60_000);
  });
});
