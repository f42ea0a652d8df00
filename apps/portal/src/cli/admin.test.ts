import fs from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import type { CurrentUser } from '@hpc/contracts';
import { Browser, dataOf, startPortal } from '../features/identity/identity.test-fixture';
import { runAdmin } from './run';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
const exec = promisify(execFile);

describe('admin CLI', () => {
  const tmp = makeTempDir('hpc-admin-cli-');
  const env = { ...process.env, DATA_DIR: tmp.dir, DATABASE_URL: '', REDIS_URL: '', SIGNING_KEYS_DIR: '' };
  afterAll(() => tmp.cleanup());

  /** Runs the CLI as a real process, from source with tsx as `npm run admin` does. */
  function processRun(args: string[], stdin?: string) {
    const child = exec(process.execPath, ['--import', 'tsx', path.join(here, 'admin.ts'), ...args], {
      cwd: root,
      env,
    });
    child.child.stdin!.end(stdin ?? '');
    return child;
  }

  /** Runs a command in this process (same code path after argv), collecting its output. */
  async function run(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('db migrate brings a new database up to date and seeds nothing (start:scaled and the migrate unit run it)', async () => {
    const fresh = makeTempDir('hpc-admin-migrate-');
    const out: string[] = [];
    const e = { ...env, DATA_DIR: fresh.dir };
    expect(await runAdmin(['db', 'migrate'], e, { out: (l) => out.push(l), err: () => undefined })).toBe(0);
    expect(out).toEqual(['database migrated']);
    expect(fs.existsSync(path.join(fresh.dir, 'portal.db'))).toBe(true);
    const users: string[] = [];
    await runAdmin(['user', 'list'], e, { out: (l) => users.push(l), err: () => undefined });
    expect(users.join('\n')).not.toContain('demo');
    fresh.cleanup();
  });

  it('as a process: reads the password from stdin, exits 1 on a refused change and 2 on a usage error', async () => {
    const added = await processRun(
      ['user', 'add', 'zhao', '--password-stdin', '--full-name', '赵六'],
      'zhao-secret-1\n',
    );
    expect(added.stdout).toMatch(/^user zhao created \(id \d+, user\)/);
    const refused = await processRun(['user', 'add', 'zhao']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('The user name zhao exists') });
    const usage = await processRun(['account', 'set-status', 'acct-z', 'Frozen']).catch(
      (e: { code: number }) => e,
    );
    expect(usage).toMatchObject({ code: 2 });
    // Three processes from source (tsx): seconds each on a loaded 2-core machine, so no default 30 s limit here.
  }, 180_000);

  it('creates a cluster, an account, a membership, a compute user and a grant that the portal then serves', async () => {
    const ok = async (...args: string[]) => {
      const r = await run(...args);
      expect(r.code, r.err).toBe(0);
      return r.out;
    };
    await ok('cluster', 'add', '20001', '--name', '测试中心', '--name-en', 'Test Centre');
    expect(
      await ok(
        'cluster',
        'set-service',
        '20001',
        'efileUrl',
        'https://a.example/efile',
        'https://b.example/efile=false',
      ),
    ).toContain('"enable":"false"');
    await ok('account', 'add', 'acct-z', '--name', '赵课题组', '--balance', '50.50', '--end', '2099-12-31');
    await ok('member', 'add', 'acct-z', 'zhao', '--type', 'admin');
    await ok('computeuser', 'add', 'zhao', '20001', '--account', 'acct-z');
    await ok('storage', 'grant', '20001', '/public/share/z', '--user', 'zhao');

    const missing = await run('computeuser', 'add', 'nobody', '20001');
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining('No user named nobody') });
    const badHome = await run('computeuser', 'add', 'zhao', '20001', '--home', '/public/home/other');
    expect(badHome.err).toContain('must start with /, end with the compute user name');

    const portal = await startPortal(tmp.dir, { url: path.join(tmp.dir, 'portal.db') });
    const b = new Browser(portal.app);
    expect((await b.login('zhao', 'zhao-secret-1')).statusCode).toBe(200);
    const info = dataOf<CurrentUser>(await b.get('/api/user/info'));
    expect(info.userInfo.fullName).toBe('赵六');
    expect(info.tokenList.map((t) => t.clusterId)).toEqual(['20001']);
    expect((await b.get('/model-zoo/proxy/efile/info')).json().data).toEqual({
      clusterId: '20001',
      efileUrl: 'https://a.example/efile',
      efileUrls: ['https://a.example/efile'],
      homePath: '/public/home/zhao',
      username: 'zhao',
    });
    expect((await b.post('/api/resource/storage/queryMultiClusterAccessPath.action')).json().data).toEqual({
      '20001': ['/public/share/z'],
    });
    expect((await b.get('/api/account/list')).json().data[0]).toMatchObject({
      accountId: 'acct-z',
      balance: 50.5,
      centerNames: '测试中心',
    });
    // The demo seed stays away from a database the CLI has filled.
    expect(await portal.deps.db.selectFrom('portal_user').select('username').execute()).toEqual([
      { username: 'zhao' },
    ]);

    // Disabling the account through the CLI reaches the token and the E-File info at once.
    await ok('account', 'set-status', 'acct-z', 'Disable');
    expect((await b.get('/model-zoo/proxy/efile/info')).json().code).toBe('612007');
    await portal.app.close();
  });

  it('account set creates or changes an account in one transaction, as the admin page does', async () => {
    expect((await run('account', 'set', 'acct-s', '--balance', '1')).code).toBe(1); // a new account needs --name
    expect((await run('account', 'set', 'acct-s', '--name', '孙课题组', '--balance', '20.00')).code).toBe(0);
    // A refused balance leaves the name and status given with it unchanged.
    const refused = await run(
      'account',
      'set',
      'acct-s',
      '--name',
      '新名',
      '--status',
      'Disable',
      '--balance',
      '99999999999999',
    );
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('1004') });
    expect((await run('account', 'set', 'acct-s', '--end', 'none', '--status', 'Disable')).code).toBe(0);
    const portal = await startPortal(tmp.dir, { url: path.join(tmp.dir, 'portal.db') });
    try {
      const account = await portal.deps.db
        .selectFrom('account')
        .selectAll()
        .where('account_id', '=', 'acct-s')
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({
        name: '孙课题组',
        status: 'Disable',
        balance_cents: 2000,
        end_use_time: null,
      });
    } finally {
      await portal.app.close();
    }
  });

  it('rotates and retires signing keys', async () => {
    expect((await run('keys', 'list')).out.split('\n')).toHaveLength(1);
    const rotated = await run('keys', 'rotate');
    expect(rotated.out).toMatch(/^new key \d{14}-[0-9a-f]{8}$/);
    const kids = (await run('keys', 'list')).out.split('\n');
    expect(kids).toHaveLength(2);
    expect(kids[1]).toContain('(active)');
    const oldest = kids[0]!;
    expect((await run('keys', 'retire', oldest)).code).toBe(0);
    expect((await run('keys', 'retire', kids[1]!.split('\t')[0]!)).err).toContain('only key');
  });
});
