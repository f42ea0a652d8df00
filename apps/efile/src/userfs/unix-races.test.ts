import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../efile.test-fixture';
import { raceFolderRenames } from '../features/files/rename-race.test-fixture';
import {
  buildWorkerBundle,
  createUsers,
  isRoot,
  makeHome,
  openPathTo,
  removeUsers,
} from '../../../../test-support/unix-users';

if (!isRoot)
  console.warn('SKIPPED unix-mode race tests: they create real users and need root (CI runs as root)');

const USER = 'tuxrace1';

/**
 * The races of review findings 1 and 2 in unix mode, where the user's worker makes the change as the user: two
 * folder renames onto one name (the worker's rename must not replace the other's folder), and two saves of one
 * opened text (the worker's last look at the mtime, under the front end's save lock).
 */
describe.skipIf(!isRoot)('unix mode: renames and saves racing', () => {
  let h: Harness;
  let token: string;
  const home = `/public/home/${USER}`;
  const post = (url: string, body: Record<string, string | number>) =>
    h.app.inject({ method: 'POST', url, headers: { token, ...FORM }, payload: form(body) });
  /** Makes what the user will own: the test runs as root, the worker as the user. */
  const own = (host: string) => execFileSync('chown', ['-R', `${USER}:${USER}`, host]);

  beforeAll(async () => {
    await buildWorkerBundle();
    createUsers([USER]);
    h = await makeHarness({ env: { EFILE_USER_MODE: 'unix', EFILE_WORKER_IDLE_S: '60' } });
    openPathTo(path.dirname(h.fsRoot));
    makeHome(h.host(home), USER);
    h.rights.set('u-race', { cun: USER, home, paths: [], st: 'Normal', exp_acct: null });
    token = await h.token({ sub: 'u-race', cun: USER, home, paths: [] });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    removeUsers([USER]);
  });

  it('two folders renamed to X at once: one wins, the other gets 1023, both kept', async () => {
    const bad = await raceFolderRenames({
      rounds: 40,
      host: (i) => h.host(`${home}/r${i}`),
      cluster: (i) => `${home}/r${i}`,
      rename: (p, newName) => post('/rename.action', { path: p, newName }),
      own,
    });
    expect(bad).toEqual([]);
  });

  it('two saves with the same expectedMtime: one is saved, the other answers 1028', async () => {
    const file = h.host(`${home}/notes.txt`);
    const bad: string[] = [];
    for (let i = 0; i < 20; i++) {
      fs.writeFileSync(file, `original ${i}\n`);
      own(file);
      const past = new Date(Date.now() - 60_000 - i * 1000);
      fs.utimesSync(file, past, past);
      const opened = (await post('/previewTextFileCheck.action', { path: `${home}/notes.txt` })).json();
      expect(opened.code).toBe('0');
      const saves = await Promise.all(
        ['first', 'second'].map((who) =>
          post('/editTextFile.action', {
            path: `${home}/notes.txt`,
            content: `${who} ${i}\n`,
            expectedMtime: opened.data.mtime as number,
          }),
        ),
      );
      const codes = saves.map((r) => r.json().code as string);
      const content = fs.readFileSync(file, 'utf8');
      if (
        [...codes].sort().join() !== '0,1028' ||
        content !== `${['first', 'second'][codes.indexOf('0')]} ${i}\n`
      )
        bad.push(`round ${i}: codes ${codes.join()} content ${JSON.stringify(content)}`);
    }
    expect(bad).toEqual([]);
  });
});
