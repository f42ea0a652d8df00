import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { measure } from './copy-tree';

/**
 * The count before a copy or move (copy-tree.ts's `measure`) of items whose folder was swapped for a link to a
 * folder outside the user's scope after the resolver checked their real paths: it opened a selected folder by path
 * with O_NOFOLLOW on the last name only, so the files and bytes beyond the link were counted into the progress the
 * user sees.
 */
describe('measure of items whose folder became a link since the resolver saw it', () => {
  const tmp = makeTempDir('efile-measure-race-');
  afterAll(() => tmp.cleanup());

  const secret = path.join(tmp.dir, 'secret');
  fs.mkdirSync(path.join(secret, 'inner'), { recursive: true });
  fs.writeFileSync(path.join(secret, 'inner/id_rsa'), 'k'.repeat(1234));
  fs.writeFileSync(path.join(secret, 'plans.txt'), 'p'.repeat(5678));
  const home = path.join(tmp.dir, 'home');
  fs.mkdirSync(path.join(home, 'mine'), { recursive: true });
  fs.writeFileSync(path.join(home, 'mine/a.txt'), 'abc');
  fs.symlinkSync(secret, path.join(home, 'moved'));

  it('counts the real items', async () => {
    expect(await measure([path.join(home, 'mine'), path.join(home, 'mine/a.txt')])).toEqual({
      files: 2,
      bytes: 6,
    });
    // Gone since: not counted.
    expect(await measure([path.join(home, 'gone'), path.join(home, 'gone/x')])).toEqual({
      files: 0,
      bytes: 0,
    });
  });

  it('refuses a selected folder or file reached through the link, counting nothing beyond it', async () => {
    for (const what of ['inner', 'plans.txt'])
      await expect(measure([path.join(home, 'moved', what)])).rejects.toMatchObject({ code: '1030' });
  });
});
