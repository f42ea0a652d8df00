import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_RIGHTS, FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

type Json = { code: string; data: Record<string, unknown> };

/** Issue 10 §2.3: a share lives only as long as its owner's rights and its item. */
describe('shares re-check the owner and the item on every access', () => {
  let h: Harness;
  let token: string;
  const verify = async (shareId: string, password: string) =>
    (
      await h.app.inject({
        method: 'POST',
        url: '/share/public/verify.action',
        headers: FORM,
        payload: form({ shareId, password }),
        remoteAddress: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      })
    ).json<Json>();
  const open = async (p: string, password = 'code1') => {
    const r = await h.app.inject({
      method: 'GET',
      url: `/share/open.action?path=${encodeURIComponent(p)}&validDays=1&password=${password}`,
      headers: { token },
    });
    expect(r.json<Json>().code).toBe('0');
    return r.json<Json>().data.shareId as string;
  };
  const rename = async (p: string, newName: string) =>
    (
      await h.app.inject({
        method: 'POST',
        url: '/rename.action',
        headers: { token, ...FORM },
        payload: form({ path: p, newName }),
      })
    ).json<Json>().code;

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
  });
  beforeEach(() => h.rights.clear());
  afterAll(() => h.close());

  it('stops serving when the grant is removed, the home moves, the account or the portal user is disabled', async () => {
    fs.writeFileSync(h.host('/public/share/proj/data.csv'), 'a,b');
    fs.writeFileSync(h.home + '/mine.txt', 'mine');
    const granted = await open('/public/share/proj/data.csv');
    const inHome = await open('/public/home/demo/mine.txt');
    const st = (await verify(granted, 'code1')).data.shareToken as string;
    const download = async () =>
      (await h.app.inject({ method: 'GET', url: `/share/public/download.action?shareToken=${st}` })).body;
    expect(await download()).toBe('a,b');

    h.rights.set('u-demo', { ...DEMO_RIGHTS, paths: [] }); // grant removed
    expect((await verify(granted, 'code1')).code).toBe('LINK_CLOSED');
    expect(await download()).toContain('LINK_CLOSED'); // a token bought earlier stops too
    expect((await verify(inHome, 'code1')).code).toBe('0');

    h.rights.set('u-demo', { ...DEMO_RIGHTS, home: '/public/home/elsewhere' }); // home moved
    expect((await verify(inHome, 'code1')).code).toBe('LINK_CLOSED');
    h.rights.set('u-demo', { ...DEMO_RIGHTS, st: 'Disable' }); // account disabled
    expect((await verify(inHome, 'code1')).code).toBe('LINK_CLOSED');
    h.rights.set('u-demo', { ...DEMO_RIGHTS, exp_acct: Date.now() - 1000 }); // account ended
    expect((await verify(inHome, 'code1')).code).toBe('LINK_CLOSED');
    h.rights.set('u-demo', null); // portal user disabled, or no compute user here any more
    expect((await verify(inHome, 'code1')).code).toBe('LINK_CLOSED');
    h.rights.set('u-demo', { ...DEMO_RIGHTS, cun: 'someone-else' });
    expect((await verify(inHome, 'code1')).code).toBe('LINK_CLOSED');

    h.rights.clear(); // rights back: the share was never closed, it serves again
    expect((await verify(inHome, 'code1')).code).toBe('0');
  });

  it('is invalid once the item or a parent is renamed or moved, through efile or behind its back (spec §5)', async () => {
    fs.mkdirSync(h.home + '/p1/item', { recursive: true });
    fs.mkdirSync(h.home + '/p2/item', { recursive: true });
    fs.mkdirSync(h.home + '/p3/sub', { recursive: true });
    fs.writeFileSync(h.home + '/p3/sub/f.txt', 'f');
    const own = await open('/public/home/demo/p1/item');
    const parent = await open('/public/home/demo/p2/item');
    const shell = await open('/public/home/demo/p3/sub/f.txt');

    expect(await rename('/public/home/demo/p1/item', 'renamed')).toBe('0');
    expect((await verify(own, 'code1')).code).toBe('LINK_CLOSED');
    expect(await rename('/public/home/demo/p2', 'p2-new')).toBe('0');
    expect((await verify(parent, 'code1')).code).toBe('LINK_CLOSED');
    // Renaming back does not revive a share efile closed.
    expect(await rename('/public/home/demo/p2-new', 'p2')).toBe('0');
    expect((await verify(parent, 'code1')).code).toBe('LINK_CLOSED');
    // A shell `mv` of a parent, then a new folder and file under the old names.
    fs.renameSync(h.home + '/p3', h.home + '/p3-moved');
    expect((await verify(shell, 'code1')).code).toBe('LINK_CLOSED');
    fs.mkdirSync(h.home + '/p3/sub', { recursive: true });
    fs.writeFileSync(h.home + '/p3/sub/f.txt', 'other');
    expect((await verify(shell, 'code1')).code).toBe('LINK_CLOSED');
    const list = (
      await h.app.inject({ method: 'GET', url: '/share/list.action', headers: { token } })
    ).json<Json>().data.list as { shareId: string; status: string }[];
    expect(list.filter((s) => [own, parent].includes(s.shareId)).map((s) => s.status)).toEqual([
      'closed',
      'closed',
    ]);
  });

  it('a folder deleted and made again at the same path (ext4 reuses the inode number) does not revive the share', async () => {
    fs.mkdirSync(h.home + '/again');
    fs.writeFileSync(h.home + '/again/old.txt', 'old');
    const id = await open('/public/home/demo/again');
    const before = fs.statSync(h.home + '/again').ino;
    fs.rmSync(h.home + '/again', { recursive: true });
    fs.mkdirSync(h.home + '/again');
    fs.writeFileSync(h.home + '/again/new.txt', 'new');
    const after = fs.statSync(h.home + '/again').ino;
    // On ext4 (CI) the new folder gets the old inode number: the case this test is about. Elsewhere it still holds.
    console.info(`inode ${before} -> ${after}${before === after ? ' (reused)' : ''}`);
    expect((await verify(id, 'code1')).code).toBe('LINK_CLOSED');
  });
});
