import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { removeTree } from './safe-remove';

const FILES = 2000;

/** `dir` with files f0…f{n-1} holding `text`. */
function fill(dir: string, n: number, text: string) {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, `f${i}`), text);
}

describe('removeTree', () => {
  const tmp = makeTempDir('efile-rm-');
  afterAll(() => tmp.cleanup());

  it('removes nested folders, files and links, and removes a link to elsewhere without touching its target', () =>
    (async () => {
      const outside = path.join(tmp.dir, 'outside');
      fill(outside, 3, 'keep');
      const home = path.join(tmp.dir, 'home1');
      fill(path.join(home, 'tree/a/b/c'), 5, 'x');
      fill(path.join(home, 'tree/a/d'), 20, 'y');
      fs.mkdirSync(path.join(home, 'tree/empty'));
      fs.symlinkSync(outside, path.join(home, 'tree/a/to-outside'));
      fs.symlinkSync(path.join(outside, 'f0'), path.join(home, 'tree/file-link'));
      await removeTree(path.join(home, 'tree'));
      expect(fs.readdirSync(home)).toEqual([]);
      expect(fs.readdirSync(outside).sort()).toEqual(['f0', 'f1', 'f2']);
      await removeTree(path.join(home, 'gone'), { force: true });
      await expect(removeTree(path.join(home, 'gone'))).rejects.toMatchObject({ code: 'ENOENT' });
      fill(path.join(home, 'full'), 1, 'x');
      await expect(removeTree(path.join(home, 'full'), { recursive: false })).rejects.toMatchObject({
        code: 'ENOTEMPTY',
      });
    })());

  it('refuses when the parent is no longer the folder the resolver saw', async () => {
    const home = path.join(tmp.dir, 'home2');
    fill(path.join(home, 'real/x'), 1, 'x');
    fs.symlinkSync(path.join(home, 'real'), path.join(home, 'alias'));
    await expect(removeTree(path.join(home, 'alias/x'))).rejects.toMatchObject({
      code: '1030',
    });
    expect(fs.existsSync(path.join(home, 'real/x/f0'))).toBe(true);
  });

  it('never deletes outside when a folder it is emptying is swapped for a link mid-way (10 races)', async () => {
    const sentinel = path.join(tmp.dir, 'other-user');
    fill(sentinel, FILES, 'precious');
    let raced = 0;
    for (let round = 0; round < 10; round++) {
      const home = path.join(tmp.dir, `race${round}`);
      fill(path.join(home, 'tree/d'), FILES, 'mine');
      // As soon as the removal has taken f0, another process moves the folder away and puts a link to the
      // sentinel (same file names) in its place; a path-walking removal then deletes the sentinel's files.
      const swapper = spawn(
        'timeout',
        [
          '10',
          'bash',
          '-c',
          'while [ -e tree/d/f0 ]; do :; done; mv tree/d tree/d.x && ln -s "$1" tree/d',
          '_',
          sentinel,
        ],
        { cwd: home, stdio: 'ignore' },
      );
      const swapped = new Promise<number | null>((r) => swapper.once('exit', r));
      await new Promise((r) => setTimeout(r, 30));
      await removeTree(path.join(home, 'tree')).catch(() => undefined);
      if ((await swapped) === 0) raced++;
      expect(fs.readdirSync(sentinel)).toHaveLength(FILES);
    }
    // The swap must really have happened during removals, or this test proves nothing.
    expect(raced).toBeGreaterThan(0);
  }, 120_000);
});
