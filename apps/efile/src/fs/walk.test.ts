import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PARTIAL_SUFFIX } from './names';
import { walk, type WalkEntry } from './transfer-ops';

/** The walk behind a fast-transfer download's manifest (transfer-ops.ts). */
describe('walk', () => {
  let base: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'walk-'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

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

    const seen: WalkEntry[] = [];
    for await (const e of walk(top, base)) seen.push(e);
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
    const seen: WalkEntry[] = [];
    for await (const e of walk(path.join(base, 'one.bin'), base)) seen.push(e);
    expect(seen).toEqual([{ rel: 'one.bin', dir: false, size: 3, mtime: expect.any(Number) }]);
  });
});
