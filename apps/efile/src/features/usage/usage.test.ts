import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeUsage } from '@hpc/contracts';
import { makeHarness, type Harness } from '../../efile.test-fixture';

/**
 * The Dashboard's "my storage" and "recent files" (issue 22 §4): counted in the background and cached, never on the
 * page's request; one count at a time per user; the recent files newest first, hidden ones counted but not listed.
 */
describe('home usage', () => {
  let h: Harness;
  let token: string;
  const usage = async () =>
    (await h.app.inject({ method: 'GET', url: '/usage.action', headers: { token } })).json<{
      code: string;
      data: HomeUsage;
    }>();

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    fs.mkdirSync(path.join(h.home, 'results/deep'), { recursive: true });
    fs.mkdirSync(path.join(h.home, '.cache'), { recursive: true });
    fs.writeFileSync(path.join(h.home, '.cache/blob'), Buffer.alloc(64 * 1024, 1));
    fs.writeFileSync(path.join(h.home, 'old.txt'), 'old');
    fs.utimesSync(path.join(h.home, 'old.txt'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    fs.writeFileSync(path.join(h.home, 'results/deep/new.csv'), 'a,b\n1,2\n');
  });
  afterAll(() => h.close());

  it('answers at once while the first count runs, then the cached count', async () => {
    const first = await usage();
    expect(first.code).toBe('0');
    expect(first.data).toMatchObject({ countedAt: null, counting: true, home: '/public/home/demo' });
    let counted = first.data;
    for (let i = 0; i < 100 && counted.countedAt === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      counted = (await usage()).data;
    }
    expect(counted.countedAt).toBeGreaterThan(0);
    expect(counted.files).toBe(3);
    // Allocated blocks, as du counts them: at least the hidden 64 KiB file.
    expect(counted.usedBytes).toBeGreaterThanOrEqual(64 * 1024);
    expect(counted.fsTotalBytes).toBeGreaterThan(0);
    expect(counted.recent.map((f) => f.path)).toEqual([
      '/public/home/demo/results/deep/new.csv',
      '/public/home/demo/old.txt',
    ]);
    expect(counted.partial).toBe(false);
    // Fresh: a new look answers the cache without counting again.
    expect((await usage()).data).toMatchObject({ countedAt: counted.countedAt, counting: false });
  });
});
