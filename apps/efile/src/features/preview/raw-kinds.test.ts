import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../../efile.test-fixture';

/**
 * A raw preview of what is not a regular file (review finding 4): a folder was refused with the words for a FIFO.
 * The refusal stays "1028"; its message names what the item is, in the request's language.
 */
describe('raw preview of what is not a file', () => {
  let h: Harness;
  let token: string;
  const raw = (name: string, lang = 'en') =>
    h.app.inject({
      method: 'GET',
      url: `/preview/raw.action?path=/public/home/demo/${encodeURIComponent(name)}&token=${token}`,
      headers: { 'accept-language': lang },
    });

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    fs.mkdirSync(`${h.home}/a-folder`);
    execFileSync('mkfifo', [`${h.home}/a-pipe`]);
  });
  afterAll(() => h.close());

  it('a folder is named a folder, in English and in Chinese', async () => {
    const en = (await raw('a-folder')).json<{ code: string; msg: string }>();
    expect(en.code).toBe('1028');
    expect(en.msg).toMatch(/folder/i);
    expect(en.msg).not.toMatch(/FIFO/);
    const zh = (await raw('a-folder', 'zh-CN')).json<{ code: string; msg: string }>();
    expect(zh.code).toBe('1028');
    expect(zh.msg).toContain('文件夹');
  });

  it('a FIFO is named a FIFO, at once (never waiting for a writer)', async () => {
    const r = (await raw('a-pipe')).json<{ code: string; msg: string }>();
    expect(r.code).toBe('1028');
    expect(r.msg).toMatch(/FIFO/);
  });
});
