import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import {
  makeRaceTree,
  SECRET_NAMES,
  SECRET_SIZE,
  expectNoLeakWhileSwapping,
  type RaceTally,
} from './swapper.test-fixture';
import { collectEntries, zipArchive, type ZipEntry } from './zip-stream';

const CALLS = Number(process.env.ZIP_RACE_CALLS ?? 1000);

describe('zip walk while a sub-folder is swapped for a link to a folder outside', () => {
  const tmp = makeTempDir('efile-zip-race-');
  afterAll(() => tmp.cleanup());

  it('follows a link to a file inside, never one to a folder or outside, selected or met in a folder', async () => {
    const scope = path.join(tmp.dir, 'links');
    const d = path.join(scope, 'd');
    fs.mkdirSync(path.join(d, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(scope, 'target.txt'), 'inside!');
    fs.mkdirSync(path.join(tmp.dir, 'out'));
    fs.writeFileSync(path.join(tmp.dir, 'out/far.txt'), 'outside');
    fs.symlinkSync('../target.txt', path.join(d, 'to-file'));
    fs.symlinkSync(path.join(scope, 'target.txt'), path.join(scope, 'sel-link'));
    fs.symlinkSync(path.join(d, 'sub'), path.join(d, 'to-folder'));
    fs.symlinkSync(path.join(tmp.dir, 'out/far.txt'), path.join(d, 'to-outside'));
    const inside = async (real: string) => real.startsWith(scope + '/');
    const entries = await collectEntries(
      [
        { host: d, name: 'd' },
        { host: path.join(scope, 'sel-link'), name: 'sel-link' },
      ],
      inside,
      10,
    );
    expect(entries.map((e) => [e.name, e.host, e.size])).toEqual([
      ['d/', d, 0],
      ['sel-link', path.join(scope, 'target.txt'), 7],
      ['d/sub/', path.join(d, 'sub'), 0],
      ['d/to-file', path.join(scope, 'target.txt'), 7],
    ]);
  });

  it('refuses a selected item reached through a folder that became a link since the resolver saw it', async () => {
    // The caller hands the real path it checked; `moved` has since been swapped for a link to the secret folder.
    const secret = path.join(tmp.dir, 'secret2');
    fs.mkdirSync(path.join(secret, 'inner'), { recursive: true });
    fs.writeFileSync(path.join(secret, 'plans.txt'), 'p'.repeat(SECRET_SIZE));
    const home = path.join(tmp.dir, 'home2');
    fs.mkdirSync(home);
    fs.symlinkSync(secret, path.join(home, 'moved'));
    for (const what of ['plans.txt', 'inner'])
      await expect(
        collectEntries([{ host: path.join(home, 'moved', what), name: what }], async () => true, 10),
      ).rejects.toMatchObject({ code: '1030' });
  });

  it(`no entry name or size from the secret folder reaches any of ${CALLS} archives`, async () => {
    // The zipped folder: files around `sub` (so the walk's lstats of `rt` take a while and finish in any order),
    // `sub` with files and a folder of its own; the secret folder beside it, outside the scope.
    const { rt, secret } = makeRaceTree(tmp.dir, 40);
    const scope = path.join(tmp.dir, 'scope');
    const inside = async (real: string) => real.startsWith(scope + '/');

    const t: RaceTally = { leaks: [], leaky: 0, codes: new Map(), ownSeen: 0 };
    const isSecret = (e: ZipEntry) =>
      e.size === SECRET_SIZE || e.name.split('/').some((part) => SECRET_NAMES.includes(part));
    const one = async () => {
      let entries: ZipEntry[];
      try {
        entries = await collectEntries([{ host: rt, name: 'rt' }], inside, 1508);
        t.codes.set('ok', (t.codes.get('ok') ?? 0) + 1);
      } catch (e) {
        const code = (e as { code?: string }).code ?? String(e);
        t.codes.set(code, (t.codes.get(code) ?? 0) + 1);
        return;
      }
      const bad = entries.filter(isSecret);
      // The size the archive announces (its Content-Length) must not count a secret byte either.
      const clean = zipArchive(entries.filter((e) => !isSecret(e))).size;
      if (bad.length || zipArchive(entries).size !== clean) t.leaky++;
      for (const e of bad) t.leaks.push(`${e.name} (${e.size} B)`);
      if (entries.some((e) => e.name === 'rt/sub/mine/a.txt')) t.ownSeen++;
    };

    await expectNoLeakWhileSwapping(rt, secret, CALLS, () => Promise.all([one(), one(), one(), one()]), t);
  }, 120_000);
});
