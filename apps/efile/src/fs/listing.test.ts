import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { childFolders, listDirectory, type ListOptions } from './listing';

const byName: ListOptions = { pageNum: 1, pageSize: 20, sort: 'name', order: 'asc' };
const inside = async () => true;
const names = async (dir: string, o: Partial<ListOptions> = {}) =>
  (await listDirectory(dir, '/d', { ...byName, ...o }, inside)).list.map((e) => e.name);

describe('listing cache (names per folder identity + mtime)', () => {
  const tmp = makeTempDir('efile-list-');
  afterAll(() => tmp.cleanup());

  it('pages through one sorted list, folders first', async () => {
    const dir = path.join(tmp.dir, 'pages');
    fs.mkdirSync(dir);
    for (let i = 0; i < 45; i++) fs.writeFileSync(path.join(dir, `f${String(i).padStart(2, '0')}`), '');
    fs.mkdirSync(path.join(dir, 'zdir'));
    const r = await listDirectory(dir, '/d', byName, inside);
    expect(r.total).toBe(46);
    expect(r.list.map((e) => e.name).slice(0, 2)).toEqual(['zdir', 'f00']);
    expect(await names(dir, { pageNum: 3 })).toEqual(['f39', 'f40', 'f41', 'f42', 'f43', 'f44']);
  });

  it('a changed folder (new mtime) is read again: added and removed entries show at once', async () => {
    const dir = path.join(tmp.dir, 'changes');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a'), '');
    fs.writeFileSync(path.join(dir, 'b'), '');
    // Pin the folder's mtime so each change below gets a different one whatever the clock granularity.
    fs.utimesSync(dir, 1_000, 1_000);
    expect(await names(dir)).toEqual(['a', 'b']);
    expect(await names(dir)).toEqual(['a', 'b']); // served from the cache
    fs.writeFileSync(path.join(dir, 'c'), '');
    fs.utimesSync(dir, 2_000, 2_000);
    expect(await names(dir)).toEqual(['a', 'b', 'c']);
    fs.rmSync(path.join(dir, 'a'));
    fs.utimesSync(dir, 3_000, 3_000);
    expect(await names(dir)).toEqual(['b', 'c']);
  });

  it('keeps one cache entry per folder: two folders with the same mtime do not mix', async () => {
    const one = path.join(tmp.dir, 'one');
    const two = path.join(tmp.dir, 'two');
    for (const [d, n] of [
      [one, 'x'],
      [two, 'y'],
    ] as const) {
      fs.mkdirSync(d);
      fs.writeFileSync(path.join(d, n), '');
      fs.utimesSync(d, 5_000, 5_000);
    }
    expect(await names(one)).toEqual(['x']);
    expect(await names(two)).toEqual(['y']);
  });
});

describe('a listing reads the folder the resolver saw (issue 25 §1.1)', () => {
  const tmp = makeTempDir('efile-list-held-');
  afterAll(() => tmp.cleanup());

  it('refuses with 1030 when the folder was swapped for a link after the check, showing nothing of the other', async () => {
    const dir = path.join(tmp.dir, 'd');
    const other = path.join(tmp.dir, 'other');
    fs.mkdirSync(dir);
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'secret'), '');
    // `dir` is what the resolver saw (a real folder); then it becomes a link to the other folder.
    fs.renameSync(dir, `${dir}.moved`);
    fs.symlinkSync(other, dir);
    await expect(listDirectory(dir, '/d', byName, inside)).rejects.toMatchObject({ code: '1030' });
    await expect(childFolders(dir, inside, 10)).rejects.toMatchObject({ code: '1030' });
    // A folder above it swapped: the real path of the opened folder differs.
    const up = path.join(tmp.dir, 'up');
    fs.mkdirSync(path.join(up, 'x'), { recursive: true });
    fs.mkdirSync(path.join(other, 'x'));
    fs.writeFileSync(path.join(other, 'x/secret'), '');
    fs.renameSync(up, `${up}.moved`);
    fs.symlinkSync(other, up);
    await expect(listDirectory(path.join(up, 'x'), '/x', byName, inside)).rejects.toMatchObject({
      code: '1030',
    });
  });

  it('a file is not a folder (1022), a missing folder is 1024', async () => {
    fs.writeFileSync(path.join(tmp.dir, 'f'), '');
    await expect(listDirectory(path.join(tmp.dir, 'f'), '/f', byName, inside)).rejects.toMatchObject({
      code: '1022',
    });
    await expect(listDirectory(path.join(tmp.dir, 'none'), '/n', byName, inside)).rejects.toMatchObject({
      code: '1024',
    });
  });

  it('a link entry shows its target only when the target is inside; a FIFO target does not block', async () => {
    const dir = path.join(tmp.dir, 'links');
    fs.mkdirSync(dir);
    fs.mkdirSync(path.join(tmp.dir, 'in-target'));
    fs.symlinkSync(path.join(tmp.dir, 'in-target'), path.join(dir, 'in'));
    fs.symlinkSync('/etc', path.join(dir, 'out'));
    execFileSync('mkfifo', [path.join(tmp.dir, 'fifo')]);
    fs.symlinkSync(path.join(tmp.dir, 'fifo'), path.join(dir, 'pipe'));
    const within = async (real: string) => real.startsWith(tmp.dir);
    const { list } = await listDirectory(dir, '/l', byName, within);
    const byEntry = Object.fromEntries(list.map((e) => [e.name, e.type]));
    expect(byEntry).toEqual({ in: 'dir', out: 'link', pipe: 'file' });
    expect((await childFolders(dir, within, 10)).names).toEqual(['in']);
  });

  it('says the kind of each entry as ls does: a FIFO is not shown as a file', async () => {
    const dir = path.join(tmp.dir, 'kinds');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'f'), '', { mode: 0o640 });
    fs.chmodSync(path.join(dir, 'f'), 0o640);
    fs.mkdirSync(path.join(dir, 'd'), { mode: 0o750 });
    fs.chmodSync(path.join(dir, 'd'), 0o2750);
    execFileSync('mkfifo', ['-m', '600', path.join(dir, 'p')]);
    fs.symlinkSync('f', path.join(dir, 'l'));
    const { list } = await listDirectory(dir, '/k', byName, inside);
    expect(Object.fromEntries(list.map((e) => [e.name, e.permission]))).toEqual({
      d: 'drwxr-s---',
      f: '-rw-r-----',
      l: 'lrwxrwxrwx',
      p: 'prw-------',
    });
  });
});
