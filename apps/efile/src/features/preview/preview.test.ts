import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

describe('preview and edit', () => {
  let h: Harness;
  let token: string;
  const post = (url: string, body: Record<string, string | number>) =>
    h.app.inject({ method: 'POST', url, headers: { token, ...FORM }, payload: form(body) });

  beforeAll(async () => {
    h = await makeHarness({ env: { EFILE_PREVIEW_MAX_BYTES: '1000' } });
    token = await h.token();
    fs.writeFileSync(h.home + '/job.slurm', '#!/bin/bash\necho 你好\n', { mode: 0o750 });
    fs.chmodSync(h.home + '/job.slurm', 0o750);
    fs.writeFileSync(h.home + '/big.txt', 'x'.repeat(1001));
    fs.writeFileSync(h.home + '/bin.dat', Buffer.from([1, 0, 2]));
    fs.writeFileSync(
      h.home + '/x.svg',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
  });
  afterAll(() => h.close());

  it('checks size and type, reads and atomically rewrites keeping the mode', async () => {
    const c = await h.app.inject({
      method: 'POST',
      url: '/previewTextFileCheck.action?path=/public/home/demo/job.slurm',
      headers: { token },
    });
    expect(c.json()).toMatchObject({ code: '0', data: { size: 24, encoding: 'utf-8' } });
    expect(
      (await post('/previewTextFileCheck.action', { path: '/public/home/demo/big.txt' })).json().code,
    ).toBe('1505');
    expect(
      (await post('/previewTextFileCheck.action', { path: '/public/home/demo/bin.dat' })).json().code,
    ).toBe('1506');
    expect(
      (await post('/previewTextFileCheck.action', { path: '/public/home/demo/x.svg' })).json().code,
    ).toBe('1506');
    const read = (await post('/previewTextFile.action', { path: '/public/home/demo/job.slurm' })).json().data;
    expect(read.content).toBe('#!/bin/bash\necho 你好\n');
    const stale = await post('/editTextFile.action', {
      path: '/public/home/demo/job.slurm',
      content: 'x',
      expectedMtime: 1,
    });
    expect(stale.json().code).toBe('1028');
    const e = await post('/editTextFile.action', {
      path: '/public/home/demo/job.slurm',
      content: 'echo 再见\n',
      expectedMtime: read.mtime,
    });
    expect(e.json().code).toBe('0');
    expect(fs.readFileSync(h.home + '/job.slurm', 'utf8')).toBe('echo 再见\n');
    expect(fs.statSync(h.home + '/job.slurm').mode & 0o777).toBe(0o750);
    expect(fs.readdirSync(h.home).filter((n) => n.includes('efile-tmp'))).toEqual([]);
  });

  it('shows no file of control characters as text (each would travel six times its size); a coloured log is text', async () => {
    fs.writeFileSync(h.home + '/ctl.txt', 'a'.repeat(100) + '\u0001'.repeat(500));
    fs.writeFileSync(h.home + '/log.txt', '\u001b[31mred\u001b[0m done\n'.repeat(20));
    const ctl = await h.app.inject({
      method: 'POST',
      url: '/previewTextFile.action',
      headers: { token, ...FORM, 'accept-language': 'zh-CN' },
      payload: form({ path: '/public/home/demo/ctl.txt' }),
    });
    expect([ctl.json().code, ctl.json().msg]).toEqual(['1506', '该文件含有过多控制字符，无法作为文本显示']);
    const log = (await post('/previewTextFile.action', { path: '/public/home/demo/log.txt' })).json();
    expect([log.code, log.data.content]).toEqual(['0', '\u001b[31mred\u001b[0m done\n'.repeat(20)]);
  });

  it('serves images inline under a sandbox CSP', async () => {
    const r = await h.app.inject({
      method: 'GET',
      url: `/preview/raw.action?path=/public/home/demo/x.svg&token=${token}`,
    });
    expect(r.headers['content-type']).toBe('image/svg+xml');
    expect(r.headers['content-security-policy']).toContain('sandbox');
    expect(r.headers['content-disposition']).toMatch(/^inline/);
    const bin = await h.app.inject({
      method: 'GET',
      url: `/preview/raw.action?path=/public/home/demo/bin.dat&token=${token}`,
    });
    expect(bin.headers['content-disposition']).toMatch(/^attachment/);
  });
});
