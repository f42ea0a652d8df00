import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, idOf, isRoot, removeUsers } from '../../../test-support/unix-users';
import {
  addAccount,
  buildJobsWorkerBundle,
  cancelJobsOf,
  lockAccounting,
  removeAccount,
  schedulerMissing,
} from '../../../test-support/slurm-cluster';
import { jobsHarness, submitBody, type JobsHarness } from './jobs.test-fixture';

/**
 * The all-in-one demo (JOBS_DEMO, as EFILE_DEMO): a demo user's home is made on their first call to either service.
 * On a fresh demo start the Job page may be opened before E-File ever was; its first calls (the templates, a
 * submission into the home) then found no home and answered 1030 ("outside your roots"). Users of its own:
 * `jobtd1` (templates first), `jobtd2` (a submission first, on the real Slurm when it answers).
 */
const A = 'jobtd1';
const B = 'jobtd2';
const ACCT = 'jobt-acct-d';
const noRoot = isRoot ? null : 'not root (the job worker runs as each user)';
const noScheduler = noRoot ?? schedulerMissing();
if (noRoot) console.warn(`SKIPPED the job service's demo homes: ${noRoot}`);
else if (noScheduler) console.warn(`SKIPPED the demo home's first submission: ${noScheduler}`);

type Env<T> = { code: string; msg: string; data: T };

describe.skipIf(noRoot !== null)("the job service's demo homes", () => {
  let h: JobsHarness;
  let releaseAccounting = () => undefined as void;
  const tokens: Record<string, string> = {};
  const call = async <T>(user: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await h.app.inject({
      method,
      url,
      headers: { token: tokens[user]!, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return res.json<Env<T>>();
  };

  beforeAll(async () => {
    await buildJobsWorkerBundle();
    createUsers([A, B]);
    if (!noScheduler) {
      releaseAccounting = await lockAccounting();
      addAccount(ACCT, [B]);
    }
    h = await jobsHarness({ users: [A, B], env: { JOBS_DEMO: 'true' } });
    // The folder of the homes exists (other users' homes are there), the users' own homes not yet.
    fs.mkdirSync(path.dirname(h.home(A)), { mode: 0o755 });
    for (const u of [A, B]) {
      h.rights.set(u, { cun: u, home: h.home(u), paths: [], st: 'Normal', exp_acct: null, acct: ACCT });
      tokens[u] = await h.token(u, { acct: ACCT });
    }
  }, 120_000);

  afterAll(async () => {
    cancelJobsOf([B]);
    await h?.close();
    if (!noScheduler) removeAccount(ACCT, [B]);
    releaseAccounting();
    removeUsers([A, B]);
  }, 120_000);

  it("makes the home, the user's, on the first call (the Submit tab's templates), as E-File's first call does", async () => {
    expect(fs.existsSync(h.home(A))).toBe(false);
    const res = await call<{ list: unknown[] }>(A, 'GET', '/job/template/list.action');
    expect(res.code, res.msg).toBe('0');
    expect(res.data.list).toEqual([]);
    const home = fs.statSync(h.home(A));
    expect([home.uid, home.mode & 0o777]).toEqual([idOf(A), 0o700]);
    // E-File's own demo home: the same samples, the user's.
    expect(fs.statSync(path.join(h.home(A), 'job.slurm')).uid).toBe(idOf(A));
  });

  it.skipIf(noScheduler !== null)('submits into a home not made yet, as the first call', async () => {
    expect(fs.existsSync(h.home(B))).toBe(false);
    const res = await call<{ jobId: string }>(
      B,
      'POST',
      '/job/submit.action',
      submitBody(ACCT, h.home(B), { jobName: 'first' }),
    );
    expect(res.code, res.msg).toBe('0');
    expect(res.data.jobId).toMatch(/^\d+$/);
  });
});
