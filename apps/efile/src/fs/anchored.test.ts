import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import {
  atomicWriteFile,
  makeDir,
  openForRead,
  openForReadSized,
  removeEntry,
  renameNoReplace,
  touchFile,
} from './file-ops';
import type { Resolved } from '@hpc/cluster-kit';

/** What the sentinel folder (another user's, outside the roots) holds: names and contents. */
const snapshot = (dir: string) =>
  fs
    .readdirSync(dir)
    .sort()
    .map((n) => `${n}=${fs.readFileSync(path.join(dir, n), 'utf8')}`);

describe('operations after the resolver’s check, with the parent swapped for a link in between', () => {
  const tmp = makeTempDir('efile-anchored-');
  afterAll(() => tmp.cleanup());
  let n = 0;

  /**
   * A home folder `d` with a file `a`, resolved as the resolver would (real paths), then — the window the check
   * cannot close — `d` moved away and a link to the sentinel (which also has `a`) put in its place.
   */
  function swapped(name: string) {
    const home = path.join(tmp.dir, `home${n++}`);
    const sentinel = path.join(tmp.dir, `sentinel${n}`);
    fs.mkdirSync(path.join(home, 'd'), { recursive: true });
    fs.mkdirSync(sentinel);
    fs.writeFileSync(path.join(home, 'd/a'), 'mine');
    fs.writeFileSync(path.join(sentinel, 'a'), 'precious');
    const parentHost = path.join(home, 'd');
    const host = path.join(parentHost, name);
    const target: Resolved = {
      clusterPath: `/public/home/u/d/${name}`,
      host,
      parentHost,
      name,
      stat: fs.existsSync(host) ? fs.lstatSync(host) : null,
      root: home,
    };
    fs.renameSync(parentHost, path.join(home, 'd.moved'));
    fs.symlinkSync(sentinel, parentHost);
    return { target, sentinel, before: snapshot(sentinel) };
  }

  it.each([
    ['create a folder', (t: Resolved) => makeDir(t), 'new'],
    ['create a file', (t: Resolved) => touchFile(t), 'new'],
    ['rename', (t: Resolved) => renameNoReplace(t.host, path.join(t.parentHost, 'b'), false), 'a'],
    ['save an edit', (t: Resolved) => atomicWriteFile(t, 'overwritten'), 'a'],
    ['delete', (t: Resolved) => removeEntry(t, true), 'a'],
  ])('%s is refused with 1030 and the other folder is untouched', async (_what, op, name) => {
    const { target, sentinel, before } = swapped(name);
    await expect(op(target)).rejects.toMatchObject({ code: '1030' });
    expect(snapshot(sentinel)).toEqual(before);
  });

  it('a read (download, preview) is refused with 1030 instead of opening the other folder’s file', async () => {
    const { target } = swapped('a');
    await expect(openForRead(target.host)).rejects.toMatchObject({ code: '1030' });
  });

  it('so is the read of a small file of a download batch, its folder resolved once for the batch', async () => {
    // readBatch resolves each folder once, then opens its files by name in it: the swap lands between the two.
    const { target } = swapped('a');
    await expect(openForReadSized(target.host)).rejects.toMatchObject({ code: '1030' });
  });
});
