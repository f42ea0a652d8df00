import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PARTIAL_SUFFIX } from './names';
import { StoreThreads } from './store-pool';
import { walk, type StatMany, type WalkEntry } from './transfer-ops';

const threads = new StoreThreads(2);
afterAll(() => threads.close());

/**
 * The walk behind a fast-transfer download's manifest (transfer-ops.ts), with its entries lstat'ed through the thread
 * pool (its default) and in the store threads (what the user file system gives it).
 */
describe.each<[string, StatMany | undefined]>([
  ['through the thread pool', undefined],
  ['in the store threads', (hosts) => threads.stats(hosts)],
])('walk, %s', (_how, stat) => {
  let base: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'walk-'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** Every entry of the walk, and the sizes of its groups. */
  async function all(item: string) {
    const seen: WalkEntry[] = [];
    const groups: WalkEntry[][] = [];
    for await (const g of walk(item, base, stat)) {
      groups.push(g);
      seen.push(...g);
    }
    return { seen, groups };
  }

  it('lists every file with its size (more than a round of lstats per folder), each folder before what it holds, and skips links, FIFOs and our partials', async () => {
    const top = path.join(base, 'top');
    fs.mkdirSync(path.join(top, 'sub', 'deeper'), { recursive: true });
    fs.mkdirSync(path.join(top, 'empty'));
    for (let i = 0; i < 150; i++) fs.writeFileSync(path.join(top, `f${i}.txt`), 'x'.repeat(i));
    fs.writeFileSync(path.join(top, 'sub', 's.txt'), 'sub');
    fs.writeFileSync(path.join(top, 'sub', 'deeper', 'd.txt'), 'deep');
    fs.symlinkSync(path.join(top, 'f1.txt'), path.join(top, 'link-to-file'));
    fs.symlinkSync('/etc', path.join(top, 'link-to-folder'));
    execFileSync('mkfifo', [path.join(top, 'fifo')]);
    fs.writeFileSync(path.join(top, `.f9.txt.abc${PARTIAL_SUFFIX}`), 'partial');

    const { seen, groups } = await all(top);
    // A folder alone in its group, files at most 64 to a group, never an empty group.
    for (const g of groups) {
      expect(g.length).toBeGreaterThan(0);
      expect(g.length).toBeLessThanOrEqual(64);
      if (g.some((e) => e.dir)) expect(g).toHaveLength(1);
    }
    const rels = seen.map((e) => e.rel);
    const files = seen.filter((e) => !e.dir);
    expect(files).toHaveLength(152);
    expect(files.find((e) => e.rel === 'top/f149.txt')?.size).toBe(149);
    expect(new Set(rels).size).toBe(rels.length);
    expect(
      seen
        .filter((e) => e.dir)
        .map((e) => e.rel)
        .sort(),
    ).toEqual(['top', 'top/empty', 'top/sub', 'top/sub/deeper']);
    // Each folder comes before anything in it.
    for (const [i, e] of seen.entries()) {
      const parent = path.posix.dirname(e.rel);
      if (parent !== '.') expect(rels.indexOf(parent), e.rel).toBeLessThan(i);
    }
    expect(rels.some((r) => /link|fifo|abc/.test(r))).toBe(false);
  });

  it('walks one file as itself', async () => {
    fs.writeFileSync(path.join(base, 'one.bin'), 'abc');
    const { seen } = await all(path.join(base, 'one.bin'));
    expect(seen).toEqual([{ rel: 'one.bin', dir: false, size: 3, mtime: expect.any(Number) }]);
  });
});
