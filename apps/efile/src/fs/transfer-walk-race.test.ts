import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { StoreThreads } from './store-pool';
import {
  makeRaceTree,
  SECRET_NAMES,
  SECRET_SIZE,
  expectNoLeakWhileSwapping,
  type RaceTally,
} from './swapper.test-fixture';
import { walk, type StatMany, type WalkEntry } from './transfer-ops';

const CALLS = Number(process.env.WALK_RACE_CALLS ?? 1000);

const threads = new StoreThreads(2);
afterAll(() => threads.close());
/** The walk's lstats both ways it is given them: the thread pool (its default) and the store threads (userfs's). */
const STATS: (StatMany | undefined)[] = [undefined, (hosts) => threads.stats(hosts)];

async function manifest(item: string, base: string, stat?: StatMany): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const g of walk(item, base, stat)) out.push(...g);
  return out;
}

/**
 * The fast-transfer download's manifest walk (transfer-ops.ts) while the user swaps a sub-folder for a link to a
 * folder outside their scope: it used to lstat a folder by path and list it by path later, so between the two the
 * link was listed through and the names and sizes beyond it went into the manifest.
 */
describe('download walk while a sub-folder is swapped for a link to a folder outside', () => {
  const tmp = makeTempDir('efile-walk-race-');
  afterAll(() => tmp.cleanup());

  it('refuses an item reached through a folder that became a link since the resolver saw it', async () => {
    // The caller hands the real path it checked; `moved` has since been swapped for a link to the secret folder.
    const secret = path.join(tmp.dir, 'secret2');
    fs.mkdirSync(path.join(secret, 'inner'), { recursive: true });
    fs.writeFileSync(path.join(secret, 'inner/id_rsa'), 'key');
    fs.writeFileSync(path.join(secret, 'plans.txt'), 'p'.repeat(SECRET_SIZE));
    const home = path.join(tmp.dir, 'home2');
    fs.mkdirSync(home);
    fs.symlinkSync(secret, path.join(home, 'moved'));
    for (const stat of STATS)
      for (const what of ['plans.txt', 'inner'])
        await expect(manifest(path.join(home, 'moved', what), home, stat)).rejects.toMatchObject({
          code: '1030',
        });
    // The selected folder itself swapped for a link: refused, not listed through it.
    await expect(manifest(path.join(home, 'moved'), home)).resolves.toEqual([]);
  });

  it(`no name or size from the secret folder reaches any of ${CALLS} manifests`, async () => {
    // The walked folder: files around `sub` (more than one round of lstats, so the walk takes a while), `sub` with
    // files and a folder of its own; the secret folder beside it, outside the scope.
    const { rt, secret } = makeRaceTree(tmp.dir, 100);
    const base = path.dirname(rt);

    const t: RaceTally = { leaks: [], leaky: 0, codes: new Map(), ownSeen: 0 };
    const isSecret = (e: WalkEntry) =>
      e.size === SECRET_SIZE || e.rel.split('/').some((part) => SECRET_NAMES.includes(part));
    const one = async (stat?: StatMany) => {
      // What was yielded before a failure counts too: the manifest streams its lines, so those reached the client.
      const entries: WalkEntry[] = [];
      try {
        for await (const g of walk(rt, base, stat)) entries.push(...g);
        t.codes.set('ok', (t.codes.get('ok') ?? 0) + 1);
      } catch (e) {
        const code = (e as { code?: string }).code ?? String(e);
        t.codes.set(code, (t.codes.get(code) ?? 0) + 1);
      }
      const bad = entries.filter(isSecret);
      if (bad.length) t.leaky++;
      for (const e of bad) t.leaks.push(`${e.rel} (${e.size} B)`);
      if (entries.some((e) => e.rel === 'rt/sub/mine/a.txt')) t.ownSeen++;
    };

    await expectNoLeakWhileSwapping(
      rt,
      secret,
      CALLS,
      () => Promise.all([one(STATS[0]), one(STATS[0]), one(STATS[1]), one(STATS[1])]),
      t,
    );
  }, 120_000);
});
