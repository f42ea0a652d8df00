import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobActionResult, JobDetail, JobListData } from '@hpc/contracts';
import { createUsers, idOf, openPathTo, removeGroups, removeUsers } from '../../../test-support/unix-users';
import {
  addAccount,
  lockAccounting,
  buildJobsWorkerBundle,
  cancelJobsOf,
  removeAccount,
  restartSlurmctld,
  schedulerMissing,
  stopSlurmctld,
} from '../../../test-support/slurm-cluster';
import { jobsHarness, submitBody, type JobsHarness } from './jobs.test-fixture';

/**
 * The job service against the real Slurm of `npm run start:cluster` (issue 22 §5), with users of its own: `jobta1`
 * (in group jobtgrp1) plays demo, `jobtb1` plays lisi, `jobtc1` has a disabled account. Skipped loudly without root or
 * without the scheduler (CI starts it in .ci/run).
 */
const missing = schedulerMissing();
if (missing) console.warn(`SKIPPED the job service's tests on the real Slurm: ${missing}`);

const A = 'jobta1';
const B = 'jobtb1';
const C = 'jobtc1';
const GROUP = 'jobtgrp1';
const ACCT = { [A]: 'jobt-acct-a', [B]: 'jobt-acct-b', [C]: 'jobt-acct-c' } as Record<string, string>;

type Env<T> = { code: string; msg: string; data: T };

describe.skipIf(missing !== null)('the job service on the real Slurm', () => {
  let h: JobsHarness;
  let releaseAccounting = () => undefined as void;
  const tokens: Record<string, string> = {};
  const blockers: string[] = [];

  const call = async <T>(
    user: string,
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    lang = 'en-US',
  ) => {
    const res = await h.app.inject({
      method,
      url,
      headers: {
        token: tokens[user]!,
        'accept-language': lang,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return res.json<Env<T>>();
  };
  const bodyFor = (user: string, over: Record<string, unknown> = {}) =>
    submitBody(ACCT[user]!, h.home(user), over);
  const submit = (user: string, over: Record<string, unknown> = {}) =>
    call<{ jobId: string }>(user, 'POST', '/job/submit.action', bodyFor(user, over));
  const list = (user: string, q = 'state=all&pageSize=100') =>
    call<JobListData>(user, 'GET', `/job/list.action?${q}`);
  const detail = (user: string, jobId: string) =>
    call<JobDetail>(user, 'GET', `/job/detail.action?jobId=${jobId}`);
  const act = (user: string, action: string, jobIds: string[]) =>
    call<{ results: JobActionResult[] }>(user, 'POST', `/job/${action}.action`, { jobIds });
  /** Polls the detail until `ok` holds (a job runs and ends on Slurm's time, not ours). */
  const until = async (user: string, jobId: string, ok: (d: JobDetail) => boolean, what: string) => {
    for (let i = 0; i < 240; i++) {
      const d = await detail(user, jobId);
      if (d.code === '0' && ok(d.data)) return d.data;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`job ${jobId} never became ${what}`);
  };

  beforeAll(async () => {
    await buildJobsWorkerBundle();
    if (spawnSync('getent', ['group', GROUP]).status !== 0) execFileSync('groupadd', [GROUP]);
    createUsers([A, B, C], { [A]: ['-G', GROUP] });
    releaseAccounting = await lockAccounting();
    for (const u of [A, B, C]) addAccount(ACCT[u]!, [u]);
    h = await jobsHarness({ users: [A, B, C] });
    fs.mkdirSync(path.dirname(h.home(A)), { mode: 0o755 });
    openPathTo(path.dirname(h.home(A)));
    for (const u of [A, B, C]) {
      fs.mkdirSync(h.home(u), { mode: 0o700 });
      fs.chownSync(h.home(u), idOf(u), idOf(u));
      h.rights.set(u, {
        cun: u,
        home: h.home(u),
        paths: [],
        st: u === C ? 'Disable' : 'Normal',
        exp_acct: null,
        acct: ACCT[u]!,
      });
      // C's token still says Normal (made before the account was disabled): only the rights of the moment say no.
      tokens[u] = await h.token(u, { acct: ACCT[u]! });
    }
  }, 120_000);

  afterAll(async () => {
    cancelJobsOf([A, B, C]);
    await h?.close();
    for (const u of [A, B, C]) removeAccount(ACCT[u]!, [u]);
    releaseAccounting();
    removeUsers([A, B, C]);
    removeGroups([GROUP]);
  }, 120_000);

  it('answers its health call without a token, and the partitions and accounts of the user', async () => {
    const health = await h.app.inject({ method: 'GET', url: '/login/getVersion.action' });
    expect(health.json()).toMatchObject({ code: '0', data: { scheduler: 'slurm' } });
    const parts = await call<{
      partitions: { name: string; maxTimeMinutes: number | null }[];
      accounts: unknown[];
    }>(A, 'GET', '/job/partitions.action');
    expect(parts.code).toBe('0');
    expect(parts.data.partitions.map((p) => p.name)).toEqual(expect.arrayContaining(['normal', 'short']));
    expect(parts.data.partitions.find((p) => p.name === 'short')!.maxTimeMinutes).toBe(30);
    expect(parts.data.accounts).toEqual([{ name: ACCT[A], portalAccountId: ACCT[A], status: 'Normal' }]);
  });

  it("runs a job as its user, with the user's groups, writing into the user's home; it shows at once", async () => {
    const res = await submit(A, {
      script: '#!/bin/bash\nid\necho "cwd=$(pwd)"\necho "submitted-from=$SLURM_SUBMIT_DIR"\n',
      output: 'out-%j.txt',
      jobName: 'whoami',
    });
    expect(res.code, res.msg).toBe('0');
    const { jobId } = res.data;
    // Listed at once, before any reading of the poller could have seen it.
    expect(
      (await list(A)).data.list.map((j) => j.jobId).concat((await detail(A, jobId)).data.jobId),
    ).toContain(jobId);
    const done = await until(A, jobId, (d) => d.state === 'COMPLETED', 'COMPLETED');
    const file = path.join(h.home(A), `out-${jobId}.txt`);
    expect(done.stdout).toBe(file);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(`uid=${idOf(A)}(${A})`);
    expect(text).toContain(GROUP);
    expect(text).toContain(`cwd=${h.home(A)}`);
    // Submitted from the job's folder (it was the service's own, which the job has no business knowing).
    expect(text).toContain(`submitted-from=${h.home(A)}\n`);
    expect(fs.statSync(file).uid).toBe(idOf(A));
    const tail = await call<{ text: string; missing: boolean }>(
      A,
      'GET',
      `/job/output.action?jobId=${jobId}`,
    );
    expect(tail.code, tail.msg).toBe('0');
    expect(tail.data.text).toContain(`(${A})`);
    // A link put under the output's name is no output (it answered "ELOOP, retry"); a file the user cannot read
    // is a permission refusal.
    fs.rmSync(file);
    fs.symlinkSync('/etc/hostname', file);
    const linked = await call<{ missing: boolean }>(
      A,
      'GET',
      `/job/output.action?jobId=${jobId}`,
      undefined,
      'zh-CN',
    );
    expect([linked.code, linked.data.missing]).toEqual(['0', true]);
    fs.rmSync(file);
    fs.writeFileSync(file, 'root only', { mode: 0o600 });
    expect((await call(A, 'GET', `/job/output.action?jobId=${jobId}`)).code).toBe('1030');
    fs.rmSync(file);
  });

  it('holds, releases and cancels, several jobs at once, each shown at once', async () => {
    // Two long jobs fill the node's two CPUs, so that what follows stays pending (holding needs a pending job).
    for (let i = 0; i < 2; i++)
      blockers.push((await submit(A, { script: '#!/bin/bash\nsleep 300\n', jobName: 'blocker' })).data.jobId);
    await until(A, blockers[1]!, (d) => d.state === 'RUNNING', 'RUNNING');
    // A running job's detail has when it was submitted and started, and no end yet (its limit's end is no end).
    const running = (await detail(A, blockers[1]!)).data;
    expect(running.submitTime).toBeGreaterThan(0);
    expect(running.startTime).toBeGreaterThanOrEqual(running.submitTime!);
    expect(running.endTime).toBeNull();
    const ids = [(await submit(A)).data.jobId, (await submit(A)).data.jobId];
    const held = await act(A, 'hold', ids);
    expect(held.data.results.every((r) => r.ok)).toBe(true);
    const afterHold = (await list(A, 'state=pending&pageSize=100')).data.list.filter((j) =>
      ids.includes(j.jobId),
    );
    expect(afterHold.map((j) => j.reason)).toEqual(['JobHeldUser', 'JobHeldUser']);
    expect((await act(A, 'release', [ids[0]!])).data.results[0]!.ok).toBe(true);
    expect((await detail(A, ids[0]!)).data.reason).not.toBe('JobHeldUser');
    expect((await act(A, 'cancel', ids)).data.results.every((r) => r.ok)).toBe(true);
    const pending = (await list(A, 'state=pending&pageSize=100')).data.list.map((j) => j.jobId);
    expect(pending).not.toContain(ids[0]);
    expect(pending).not.toContain(ids[1]);
    expect((await detail(A, ids[1]!)).data.state).toBe('CANCELLED');
  });

  it("never lets another user see, cancel, hold or release a user's jobs, through any call", async () => {
    const { jobId } = (await submit(A, { jobName: 'private' })).data;
    expect((await list(B)).data.list.map((j) => j.jobId)).not.toContain(jobId);
    expect((await detail(B, jobId)).code).toBe('JOB_NOT_FOUND');
    expect((await call(B, 'GET', `/job/output.action?jobId=${jobId}`)).code).toBe('JOB_NOT_FOUND');
    for (const action of ['cancel', 'hold', 'release']) {
      const r = await act(B, action, [jobId]);
      expect(r.data.results).toEqual([expect.objectContaining({ jobId, ok: false, code: 'JOB_NOT_FOUND' })]);
    }
    const still = await detail(A, jobId);
    expect([still.data.state, still.data.reason]).not.toContain('CANCELLED');
    expect(still.data.reason).not.toBe('JobHeldUser');
    const history = await call<{ list: { jobId: string; user: string }[] }>(
      B,
      'GET',
      '/job/history.action?pageSize=500',
    );
    expect(history.data.list.every((j) => j.user === B)).toBe(true);
  });

  it("reads a job by id as Slurm has it, whatever another user's job name holds", async () => {
    const { jobId } = (await submit(A, { jobName: 'victim' })).data;
    // Found from outside: B gave sbatch itself (not the portal, which refuses such names) a name holding a newline
    // and a line of A's job in the read's old fixed separators; the line was taken for A's job, as B's.
    // A second line forges a record of the history's (`sacct -P`) old `|` separators, as B's own.
    const forged =
      `x\n${jobId}\u001fRUNNING\u001fNone\u001f${B}\u001f${ACCT[B]}\u001fnormal\u001f\u001f` +
      `\n${jobId}|COMPLETED|0:0|${ACCT[B]}|normal|normal|${B}|vm|1|1|1|||1M|1|1|1|1|1|/tmp|forged`;
    const sb = spawnSync(
      'runuser',
      ['-u', B, '--', 'sbatch', '--parsable', '--hold', `--account=${ACCT[B]}`, '--partition=normal'].concat([
        `--job-name=${forged}`,
        '--time=1',
        `--chdir=${h.home(B)}`,
        '--output=/dev/null',
        '--wrap=true',
      ]),
      { encoding: 'utf8' },
    );
    const theirs = sb.stdout.trim().split(';')[0]!;
    expect(theirs, sb.stderr).toMatch(/^\d+$/);
    try {
      const read = await h.deps.reader.readJobs([jobId, theirs]);
      expect(read.map((j) => [j.jobId, j.user, j.name]).sort()).toEqual(
        [
          [jobId, A, 'victim'],
          [theirs, B, forged],
        ].sort(),
      );
      const held = await act(B, 'hold', [jobId, theirs]);
      expect(held.data.results[0]).toMatchObject({ jobId, ok: false, code: 'JOB_NOT_FOUND' });
      expect((await detail(B, jobId)).code).toBe('JOB_NOT_FOUND');
      // Ended, B's job is in B's history once, under its whole name; A's job id nowhere in it.
      spawnSync('scancel', [theirs]);
      let mine: { jobId: string; name: string }[] = [];
      for (let i = 0; i < 60 && !mine.some((j) => j.jobId === theirs); i++) {
        await new Promise((r) => setTimeout(r, 500));
        const hist = await call<{ list: { jobId: string; name: string }[] }>(
          B,
          'GET',
          '/job/history.action?pageSize=500',
        );
        mine = hist.data.list;
      }
      expect(mine.filter((j) => j.jobId === theirs).map((j) => j.name)).toEqual([forged]);
      expect(mine.map((j) => j.jobId)).not.toContain(jobId);
    } finally {
      spawnSync('scancel', [theirs, jobId]);
    }
  });

  it('refuses a disabled account before Slurm is asked: nothing ever runs as the user', async () => {
    const res = await submit(C);
    expect(res.code).toBe('612007');
    expect((await submit(C, { script: '#!/bin/bash\n' })).code).toBe('612007');
    // No worker and no command ever ran as C (the token said Normal; the portal's answer of the moment did not).
    expect(spawnSync('pgrep', ['-u', C]).status).toBe(1);
    expect(execFileSync('squeue', ['-h', '-u', C]).toString().trim()).toBe('');
    // The same account for A's token would be refused too: an account is the user's own only.
    expect((await submit(A, { account: ACCT[C] })).code).toBe('1018');
  });

  it("refuses paths outside the user's roots, scripts that are too large or not text, before Slurm is asked", async () => {
    fs.symlinkSync('/etc', path.join(h.home(A), 'etc-link'));
    // Into a folder of B's that A cannot even look into: "1030", not the system's EACCES with 1001.
    fs.symlinkSync(path.join(h.home(B), 'results'), path.join(h.home(A), 'to-b'));
    // A FIFO as the script: never waited on (its open would hold the worker's thread until a writer came).
    execFileSync('mkfifo', [path.join(h.home(A), 'script.fifo')]);
    // A folder of A's own that A may look at but not enter: sbatch could not start in it (Node's EACCES came back
    // as the scheduler's refusal).
    fs.mkdirSync(path.join(h.home(A), 'noaccess'), { mode: 0o000 });
    fs.chownSync(path.join(h.home(A), 'noaccess'), idOf(A), idOf(A));
    const cases: [Record<string, unknown>, string][] = [
      [{ workDir: path.join(h.home(A), 'noaccess') }, '1030'],
      // A NUL could not be passed to the command at all ("retry"); a comma makes a list of Slurm's names.
      [{ partition: 'nor\u0000mal' }, '1004'],
      [{ qos: '\u0000' }, '1004'],
      [{ account: `${ACCT[A]},${ACCT[B]}` }, '1004'],
      [{ workDir: '/etc' }, '1030'],
      [{ workDir: h.home(B) }, '1030'],
      [{ workDir: path.join(h.home(A), 'etc-link') }, '1030'],
      [{ workDir: path.join(h.home(A), 'to-b') }, '1030'],
      [{ output: '/etc/jobt.out' }, '1030'],
      [{ error: '../' + B + '/stolen.err' }, '1030'],
      [{ script: undefined, scriptPath: '/etc/passwd' }, '1030'],
      [{ script: undefined, scriptPath: path.join(h.home(A), 'etc-link', 'passwd') }, '1030'],
      [{ script: undefined, scriptPath: path.join(h.home(A), 'script.fifo') }, '1020'],
      [{ script: `#!/bin/bash\n${'x'.repeat(1024 * 1024)}\n` }, '1011'],
      [{ script: '#!/bin/bash\necho \u0000\n' }, 'JOB_SCRIPT_TEXT'],
      // A newline in the name made lines of its own in squeue's answer, read as other users' jobs; a `/` in it
      // put `%x` outputs outside the user's folders.
      [{ jobName: `x\n${B}\u001fRUNNING` }, '1004'],
      [{ jobName: '../../../tmp/escaped', output: '%x.out' }, '1004'],
      // `..` as the whole name, in a folder of `%x`s: checked as the literal folder, written as `..` by Slurm.
      [{ jobName: '..', output: '%x.out' }, '1004'],
      [{ jobName: '.', output: 'x.out' }, '1004'],
      [{ jobName: 'fine', output: '%x/%x/%x/%x/tmp/escaped-%j.out' }, '1004'],
      [{ jobName: 'fine', error: `${h.home(A)}/%u/e.err` }, '1004'],
    ];
    for (const [over, code] of cases)
      expect((await submit(A, over)).code, JSON.stringify(over).slice(0, 80)).toBe(code);
    expect(fs.existsSync('/etc/jobt.out')).toBe(false);
    const pattern = await call<null>(
      A,
      'POST',
      '/job/submit.action',
      bodyFor(A, { output: '%x/o.out' }),
      'zh-CN',
    );
    expect(pattern.msg).toBe('Slurm 的 % 占位符（如 %x、%j）只能用在文件名中，不能用在目录中：%x/o.out');
    // A history asked for a date past the year 9999: refused before sacct runs (it ran with NaN dates).
    const far = await call<null>(A, 'GET', '/job/history.action?start=99999999999999999');
    expect(far.code).toBe('1004');
    expect((await call<null>(A, 'GET', '/job/history.action?account=a%00b')).code).toBe('1004');
  });

  it("answers Slurm's own refusals with a clear code, Slurm's reason, in the user's language", async () => {
    const bad = await call<null>(A, 'POST', '/job/submit.action', bodyFor(A, { partition: 'nope' }), 'zh-CN');
    expect(bad).toMatchObject({ code: 'JOB_PARTITION', msg: '调度系统拒绝了该作业：队列无效' });
    expect((bad.data as unknown as { reason: string }).reason).toMatch(/partition/i);
    expect((await submit(A, { partition: 'short', timeLimitMinutes: 60 })).code).toBe('JOB_TIME_LIMIT');
    expect((await submit(A, { gpus: 1 })).code).toBe('JOB_GRES');
  });

  it('takes 20 submissions at once, all accepted and all listed at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(A, { jobName: `burst${i}` })),
    );
    expect(results.map((r) => r.code)).toEqual(Array(20).fill('0'));
    const ids = results.map((r) => r.data.jobId);
    expect(new Set(ids).size).toBe(20);
    const listed = new Set((await list(A, 'state=all&pageSize=500')).data.list.map((j) => j.jobId));
    expect(ids.filter((id) => !listed.has(id))).toEqual([]);
    await act(A, 'cancel', ids);
  });

  it("keeps templates as the user's own files in the home", async () => {
    const tpl = {
      ...bodyFor(A),
      name: '模板_1',
      qos: '',
      output: '',
      error: '',
      script: '#!/bin/bash\necho hi\n',
    };
    delete (tpl as { account?: string }).account;
    expect((await call(A, 'POST', '/job/template/save.action', tpl)).code).toBe('0');
    const file = path.join(h.home(A), '.hpc-portal/job-templates/模板_1.json');
    expect([fs.statSync(file).uid, fs.statSync(file).mode & 0o777]).toEqual([idOf(A), 0o600]);
    expect(
      (await call<{ list: { name: string }[] }>(A, 'GET', '/job/template/list.action')).data.list.map(
        (t) => t.name,
      ),
    ).toEqual(['模板_1']);
    const got = await call<{ script: string; name: string }>(
      A,
      'GET',
      `/job/template/get.action?name=${encodeURIComponent('模板_1')}`,
    );
    expect(got.data).toMatchObject({ name: '模板_1', script: tpl.script, partition: tpl.partition });
    expect((await call<{ list: unknown[] }>(B, 'GET', '/job/template/list.action')).data.list).toEqual([]);
    expect((await call(B, 'GET', `/job/template/get.action?name=${encodeURIComponent('模板_1')}`)).code).toBe(
      '1020',
    );
    expect((await call(A, 'POST', '/job/template/save.action', { ...tpl, name: '../escape' })).code).toBe(
      '1004',
    );
    expect((await call(A, 'POST', '/job/template/delete.action', { name: '模板_1' })).code).toBe('0');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('leaves out of the templates a FIFO or a link under a template name, even one swapped in while listing', async () => {
    const tpl = { ...bodyFor(A), name: 'kept', qos: '', output: '', error: '', script: '#!/bin/bash\n' };
    delete (tpl as { account?: string }).account;
    expect((await call(A, 'POST', '/job/template/save.action', tpl)).code).toBe('0');
    const dir = path.join(h.home(A), '.hpc-portal/job-templates');
    const names = async () =>
      (await call<{ list: { name: string }[] }>(A, 'GET', '/job/template/list.action')).data.list.map(
        (t) => t.name,
      );
    // As the user would from a shell: a FIFO and a link to a readable template under other names.
    const asUser = (script: string) =>
      spawnSync('runuser', ['-u', A, '--', 'sh', '-c', script], { cwd: dir });
    asUser('mkfifo fifo.json && ln -s kept.json link.json');
    expect(await names()).toEqual(['kept']);
    // A regular template and a FIFO swapped under one name while the list reads it: before, a FIFO that replaced
    // the file after its look held the worker's thread on its open for good, and the list never answered.
    fs.writeFileSync(path.join(dir, 'swap.json'), JSON.stringify({ ...tpl, name: 'swap' }));
    const swapper = spawn(
      'runuser',
      [
        '-u',
        A,
        '--',
        'sh',
        '-c',
        `cp swap.json .reg; while :; do mkfifo .f 2>/dev/null; mv -f .f swap.json; cp .reg .r; mv -f .r swap.json; done`,
      ],
      // Its own process group: runuser does not pass a kill on to the shell it started.
      { cwd: dir, stdio: 'ignore', detached: true },
    );
    try {
      for (let i = 0; i < 60; i++) expect(await names()).toContain('kept');
    } finally {
      process.kill(-swapper.pid!, 'SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists names only, whatever the files hold; a template is read when chosen, and a hand-edited one is said so', async () => {
    const tpl = { ...bodyFor(A), name: 'big', qos: '', output: '', error: '', script: '"'.repeat(1_000_000) };
    delete (tpl as { account?: string }).account;
    // Found from outside: 100 templates of a 1 MB script each (2 MB of JSON) made every list a 200 MB answer
    // from the user's worker, parsed on the service's event loop while every other request waited.
    for (let i = 0; i < 20; i++)
      expect((await call(A, 'POST', '/job/template/save.action', { ...tpl, name: `big${i}` })).code).toBe(
        '0',
      );
    const res = await h.app.inject({ url: '/job/template/list.action', headers: { token: tokens[A]! } });
    expect(res.rawPayload.length).toBeLessThan(4096);
    expect(res.json<Env<{ list: { name: string }[] }>>().data.list).toHaveLength(20);
    const one = await call<{ script: string }>(A, 'GET', '/job/template/get.action?name=big7');
    expect(one.data.script).toHaveLength(1_000_000);
    const dir = path.join(h.home(A), '.hpc-portal/job-templates');
    fs.writeFileSync(path.join(dir, 'edited.json'), '{"name": "edited", "script": 3}');
    fs.chownSync(path.join(dir, 'edited.json'), idOf(A), idOf(A));
    const edited = await call(A, 'GET', '/job/template/get.action?name=edited', undefined, 'zh-CN');
    expect([edited.code, edited.msg]).toEqual(['1004', expect.stringContaining('无法读取模板 edited')]);
    expect((await call(A, 'GET', '/job/template/get.action?name=..%2Fx')).code).toBe('1004');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows finished jobs in the history, from accounting', async () => {
    const { jobId } = (await submit(A, { jobName: 'short-lived' })).data;
    await act(A, 'cancel', [jobId]);
    for (let i = 0; i < 60; i++) {
      const hist = await call<{ list: { jobId: string; state: string }[] }>(
        A,
        'GET',
        '/job/history.action?pageSize=500',
      );
      const mine = hist.data.list.find((j) => j.jobId === jobId);
      if (mine) return expect(mine.state).toBe('CANCELLED');
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`job ${jobId} never reached the history`);
  });

  it('survives slurmctld stopping and starting: the lists say the scheduler is out, then recover', async () => {
    await h.deps.poller.pollNow();
    const before = (await list(A)).data;
    expect(before.status.error).toBeNull();
    await stopSlurmctld();
    try {
      await h.deps.poller.pollNow();
      const during = (await list(A)).data;
      expect(during.status.error).toBeTruthy();
      expect(during.status.downSince).toBeGreaterThan(0);
      // The last reading is still answered, marked as old.
      expect(during.list.map((j) => j.jobId)).toEqual(before.list.map((j) => j.jobId));
    } finally {
      await restartSlurmctld();
    }
    await h.deps.poller.pollNow();
    const after = (await list(A)).data;
    expect(after.status.error).toBeNull();
    expect(after.list.map((j) => j.jobId)).toEqual(expect.arrayContaining(blockers));
  }, 120_000);
});
