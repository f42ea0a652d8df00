import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../efile.test-fixture';
import { createUsers, idOf, isRoot, removeUsers } from '../../../../test-support/unix-users';
import { singleModeWarning } from './single-mode';

if (!isRoot) console.warn('SKIPPED single mode with real users: creating users needs root (CI runs as root)');

/**
 * Single mode on a machine whose users exist (issue 25 §2): a real account `secsm1` has the compute user's name.
 * efile writes as its own account, so its checks must be its own account's too, not the mode bits for `secsm1`.
 */
describe.skipIf(!isRoot)('single mode: one identity decides writes and checks', () => {
  const USERS = ['secsm1', 'secsm2'];
  let h: Harness;
  let token: string;
  const HOME = '/public/home/secsm1';
  const post = (url: string, body: Record<string, string>) =>
    h.app.inject({ method: 'POST', url, headers: { token, ...FORM }, payload: form(body) });
  const allowed = async (p: string) =>
    (await post('/checkPermission.action', { path: p, permissionAction: 'write' })).json<{
      data: { allowded: boolean };
    }>().data.allowded;

  beforeAll(async () => {
    createUsers(USERS);
    h = await makeHarness();
    // A home made by the service (root), 0755, as single mode's demo homes are: the user's name is "others" there.
    fs.mkdirSync(h.host(HOME), { mode: 0o755 });
    token = await h.token({ sub: 'u-sm', cun: 'secsm1', home: HOME, paths: [] });
  });
  afterAll(async () => {
    await h?.close();
    removeUsers(USERS);
  });

  it('the write check agrees with what efile can write: the home, and a folder it has just created', async () => {
    expect(await allowed(HOME)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const dir = `${HOME}/batch-${i}`;
      expect((await post('/mkdir.action', { path: dir })).json<{ code: string }>().code).toBe('0');
      // The fast upload's check before each folder's files: it refused here, as `secsm1`, after 500 files.
      expect(await allowed(dir)).toBe(true);
    }
    expect(fs.statSync(h.host(`${HOME}/batch-0`)).uid).toBe(0);
  });

  it('warns at start when the home folder holds real users’ homes, not when only its own', async () => {
    // Account names are cached and /etc/passwd looked at again at most once a second (owners.ts); test files share
    // their worker (isolate: false), so another file may have filled the cache just before `secsm2` was made.
    await new Promise((r) => setTimeout(r, 1100));
    const config = h.deps.config;
    expect(singleModeWarning(config, h.deps.resolver)).toBeNull();
    fs.mkdirSync(h.host('/public/home/secsm2'));
    fs.chownSync(h.host('/public/home/secsm2'), idOf('secsm2'), idOf('secsm2'));
    expect(singleModeWarning(config, h.deps.resolver)).toMatch(/secsm2.*not isolation/);
    expect(singleModeWarning({ ...config, EFILE_USER_MODE: 'unix' }, h.deps.resolver)).toBeNull();
  });
});
