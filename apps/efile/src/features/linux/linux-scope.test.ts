import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import { DEMO_RIGHTS, FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

/** A ustar header block for one regular file (enough for a one-entry tar). */
function tarOf(name: string, data: Buffer): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(data.length.toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const x of h) sum += x;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  const pad = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([h, data, pad, Buffer.alloc(1024)]);
}

describe('Linux-command tokens are confined to their folder by real path (issue 10 §2.5)', () => {
  let h: Harness;
  let token: string;
  const SECRET = 'PRIVATE-KEY-MATERIAL-0123456789';

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    fs.mkdirSync(h.home + '/projects/src', { recursive: true });
    fs.mkdirSync(h.home + '/private');
    fs.writeFileSync(h.home + '/projects/src/main.c', 'int main(){}');
    fs.writeFileSync(h.home + '/private/id_rsa', SECRET);
    // Inside the token's folder, a link to another folder of the same home (absolute and relative).
    fs.symlinkSync(h.home + '/private', h.home + '/projects/p');
    fs.symlinkSync('../private', h.home + '/projects/rel');
    fs.symlinkSync(h.home + '/private/id_rsa', h.home + '/projects/key');
  });
  afterAll(() => h.close());

  const userToken = async (p: string) =>
    (
      await h.app.inject({
        method: 'POST',
        url: '/getUserToken.action',
        headers: { token, ...FORM },
        payload: form({ path: p }),
      })
    ).json<{ data: { token: string } }>().data.token;

  it('a zip download of the folder does not read through a link to ~/private', async () => {
    const t = await userToken('/public/home/demo/projects');
    const res = await h.app.inject({
      method: 'GET',
      url: '/linux/get',
      headers: { [LINUX_TOKEN_HEADER]: t },
    });
    expect(res.rawPayload.includes(Buffer.from('int main(){}'))).toBe(true);
    expect(res.rawPayload.includes(Buffer.from(SECRET))).toBe(false);
  });

  it('a tar entry does not write through a link to ~/private', async () => {
    const t = await userToken('/public/home/demo/projects');
    for (const name of ['p/planted.txt', 'rel/planted.txt']) {
      const res = await h.app.inject({
        method: 'PUT',
        url: '/linux/tar',
        headers: { 'content-type': 'application/octet-stream', [LINUX_TOKEN_HEADER]: t },
        payload: tarOf(name, Buffer.from('planted')),
      });
      expect(res.json<{ data: { files: number; skipped: string[] } }>().data).toMatchObject({
        files: 0,
        skipped: [name],
      });
    }
    expect(fs.readdirSync(h.home + '/private')).toEqual(['id_rsa']);
  });

  it('a folder swapped for a link after the token was issued is not followed out of the owner roots', async () => {
    fs.mkdirSync(h.home + '/swap');
    const t = await userToken('/public/home/demo/swap');
    fs.rmdirSync(h.home + '/swap');
    fs.symlinkSync(h.host('/public/home/other'), h.home + '/swap');
    fs.writeFileSync(h.host('/public/home/other/theirs.txt'), 'not yours');
    const res = await h.app.inject({
      method: 'GET',
      url: '/linux/get',
      headers: { [LINUX_TOKEN_HEADER]: t },
    });
    expect(res.json<{ code: string }>().code).toBe('1030');
  });

  it('re-checks the account and the user on every use: a token issued before the account was disabled stops', async () => {
    const t = await userToken('/public/home/demo/projects');
    const granted = await userToken('/public/share/proj');
    const put = async (tok: string, name: string) =>
      (
        await h.app.inject({
          method: 'PUT',
          url: `/linux/put/${name}`,
          headers: { 'content-type': 'application/octet-stream', [LINUX_TOKEN_HEADER]: tok },
          payload: 'x',
        })
      ).json<{ code: string }>().code;
    expect(await put(t, 'ok1.txt')).toBe('0');
    h.rights.set('u-demo', { ...DEMO_RIGHTS, st: 'Disable' });
    expect(await put(t, 'no1.txt')).toBe('1007');
    expect(
      (await h.app.inject({ method: 'GET', url: '/linux/get', headers: { [LINUX_TOKEN_HEADER]: t } })).json<{
        code: string;
      }>().code,
    ).toBe('1007');
    h.rights.set('u-demo', { ...DEMO_RIGHTS, exp_acct: Date.now() - 1 });
    expect(await put(t, 'no2.txt')).toBe('1007');
    h.rights.set('u-demo', null); // portal user disabled or removed from the cluster
    expect(await put(t, 'no3.txt')).toBe('1406');
    h.rights.set('u-demo', { ...DEMO_RIGHTS, paths: [] }); // the grant of /public/share/proj removed
    expect(await put(granted, 'no4.txt')).toBe('1030');
    expect(await put(t, 'ok2.txt')).toBe('0');
    h.rights.clear();
    expect(await put(granted, 'ok3.txt')).toBe('0');
    expect(fs.readdirSync(h.home + '/projects').filter((n) => n.startsWith('no'))).toEqual([]);
  });
});
