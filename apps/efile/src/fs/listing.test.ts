import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { listDirectory, type ListOptions } from './listing';

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
