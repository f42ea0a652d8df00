import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobActionResult } from '@hpc/contracts';
import type { RunCommand } from '../../scheduler/command';
import type { JobWorker } from '../../worker/job-worker';
import { jobsHarness, type JobsHarness } from '../../jobs.test-fixture';

const recorded = (name: string) =>
  fs.readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), '../../scheduler/slurm/recorded', name),
    'utf8',
  );

/** The recorded queue (demo's jobs 7 and 4, lisi's 6); every other command answers nothing. */
const run: RunCommand = async (cmd, args) => ({
  code: 0,
  stdout: cmd.endsWith('squeue') && args[0] === '--json' ? recorded('squeue.json') : '',
  stderr: '',
});

describe("the job actions' results", () => {
  let h: JobsHarness;
  let demo: string;
  const signalled: string[][] = [];

  beforeAll(async () => {
    h = await jobsHarness({
      users: ['demo', 'lisi'],
      env: { JOBS_USER_MODE: 'single', JOBS_POLL_INTERVAL_S: '600' },
      opts: { run, noPolling: true },
    });
    // A worker that does as it is told: the rule under test is the service's, which ids reach it and what the others
    // answer.
    const worker: Pick<JobWorker, 'signal'> = {
      signal: async (_scope, _action, ids) => {
        signalled.push(ids);
        return ids.map((jobId) => ({ jobId, ok: true, reason: '' }));
      },
    };
    h.deps.worker = worker as JobWorker;
    demo = await h.token('demo');
  });
  afterAll(() => h?.close());

  const act = async (action: string, jobIds: string[], lang: string) =>
    (
      await h.app.inject({
        method: 'POST',
        url: `/job/${action}.action`,
        headers: { token: demo, 'content-type': 'application/json', 'accept-language': lang },
        payload: JSON.stringify({ jobIds }),
      })
    ).json<{ code: string; data: { results: JobActionResult[] } }>();

  // Another user's job was answered "The job does not exist or is not yours" in English whatever the language asked.
  it("says another user's job is not found in the language asked, and never signals it", async () => {
    for (const action of ['cancel', 'hold']) {
      const zh = await act(action, ['7', '6'], 'zh-CN,zh;q=0.9');
      expect(zh.data.results).toEqual([
        { jobId: '7', ok: true, code: '0', msg: 'success' },
        { jobId: '6', ok: false, code: 'JOB_NOT_FOUND', msg: '作业不存在或不属于您' },
      ]);
      const en = await act(action, ['6'], 'en-US');
      expect(en.data.results).toEqual([
        { jobId: '6', ok: false, code: 'JOB_NOT_FOUND', msg: 'The job does not exist or is not yours' },
      ]);
    }
    expect(signalled).toEqual([['7'], ['7']]);
  });
});
