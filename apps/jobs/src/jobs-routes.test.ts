import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv } from '@hpc/server-kit';
import type { CommandResult, RunCommand } from './scheduler/command';
import { jobsHarness, submitBody, type JobsHarness } from './jobs.test-fixture';

/**
 * The job service's routes over recorded Slurm 22.05 output (no scheduler, no root): the token check, single mode's
 * refusal, the one poller per cluster whatever the number of readers, and the outage. The same calls against the
 * real Slurm, as real users, are jobs-slurm.test.ts.
 */
const recorded = (name: string) =>
  fs.readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'scheduler/slurm/recorded', name),
    'utf8',
  );

/** A scheduler that answers from the recordings and counts each command; `down` makes every command fail. */
function recordedSlurm() {
  const counts = new Map<string, number>();
  const state = { down: false };
  const run: RunCommand = async (cmd, args) => {
    const key = `${path.basename(cmd)} ${args[0] ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const ok = (stdout: string): CommandResult => ({ code: 0, stdout, stderr: '' });
    if (state.down)
      return {
        code: 1,
        stdout: '',
        stderr: 'squeue: error: Unable to contact slurm controller (connect failure)',
      };
    if (cmd.endsWith('squeue') && args[0] === '--json') return ok(recorded('squeue.json'));
    if (cmd.endsWith('squeue')) return ok('');
    if (cmd.endsWith('sinfo')) return ok(recorded('sinfo.json'));
    if (cmd.endsWith('scontrol')) return ok(recorded('scontrol-partitions.txt'));
    if (args.includes('qos')) return ok(recorded('sacctmgr-qos.txt'));
    return ok(recorded('sacctmgr-assoc.txt'));
  };
  return { run, counts, state, reads: () => counts.get('squeue --json') ?? 0 };
}

describe('the job service over recorded Slurm output, in single mode', () => {
  const slurm = recordedSlurm();
  let h: JobsHarness;
  let demo: string;
  let lisi: string;
  const get = async <T>(token: string | undefined, url: string) =>
    (await h.app.inject({ method: 'GET', url, headers: token ? { token } : {} })).json<{
      code: string;
      data: T;
    }>();

  beforeAll(async () => {
    h = await jobsHarness({
      users: ['demo', 'lisi'],
      env: { JOBS_USER_MODE: 'single', JOBS_POLL_INTERVAL_S: '600' },
      opts: { run: slurm.run, noPolling: true },
    });
    h.rights.set('demo', {
      cun: 'demo',
      home: h.home('demo'),
      paths: [],
      st: 'Normal',
      exp_acct: null,
      acct: 'acct-demo-hf',
    });
    h.rights.set('lisi', {
      cun: 'lisi',
      home: h.home('lisi'),
      paths: [],
      st: 'Disable',
      exp_acct: null,
      acct: 'acct-lisi',
    });
    demo = await h.token('demo');
    lisi = await h.token('lisi');
  });
  afterAll(() => h?.close());

  it('needs a token of this cluster on every call but the health check', async () => {
    expect((await get(undefined, '/login/getVersion.action')).code).toBe('0');
    expect((await get(undefined, '/job/list.action')).code).toBe('1406');
    expect((await get('forged.token.here', '/job/list.action')).code).toBe('1406');
  });

  it("lists each user's own jobs from one reading of the queue, however many ask", async () => {
    const before = slurm.reads();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        get<{ list: { jobId: string; user: string }[]; counts: object }>(
          i % 2 ? lisi : demo,
          '/job/list.action?state=all',
        ),
      ),
    );
    expect(slurm.reads() - before).toBe(1);
    expect(answers[0]!.data.list.map((j) => j.jobId)).toEqual(['7', '4']);
    expect(answers[1]!.data.list.map((j) => j.jobId)).toEqual(['6']);
    expect(
      answers.every((a) => a.data.list.every((j) => j.user === (answers.indexOf(a) % 2 ? 'lisi' : 'demo'))),
    ).toBe(true);
    expect(answers[0]!.data.counts).toEqual({ running: 0, pending: 2 });
  });

  it('answers the partitions with their nodes and the accounts of the moment, a disabled one marked', async () => {
    const parts = await get<{ partitions: { name: string; cpus: { total: number } }[]; accounts: unknown[] }>(
      demo,
      '/job/partitions.action',
    );
    expect(parts.data.partitions.map((p) => [p.name, p.cpus.total])).toEqual([
      ['normal', 2],
      ['short', 2],
    ]);
    expect(parts.data.accounts).toEqual([
      { name: 'acct-demo-hf', portalAccountId: 'acct-demo-hf', status: 'Normal' },
    ]);
    expect((await get<{ accounts: unknown[] }>(lisi, '/job/partitions.action')).data.accounts).toEqual([
      { name: 'acct-lisi', portalAccountId: 'acct-lisi', status: 'Disable' },
    ]);
  });

  it('refuses every call that acts for a user in single mode: submitting needs the per-user mode', async () => {
    const submit = await h.app.inject({
      method: 'POST',
      url: '/job/submit.action',
      headers: { token: demo, 'content-type': 'application/json' },
      payload: JSON.stringify(
        submitBody('acct-demo-hf', h.home('demo'), { jobName: 'x', script: '#!/bin/bash\n' }),
      ),
    });
    expect(submit.json()).toMatchObject({ code: 'JOB_USER_MODE' });
    expect(submit.statusCode).toBe(501);
    for (const url of ['/job/history.action', '/job/detail.action?jobId=4', '/job/template/list.action'])
      expect((await get(demo, url)).code, url).toBe('JOB_USER_MODE');
    expect(slurm.counts.get('sbatch --parsable')).toBeUndefined();
  });

  it('keeps answering the last reading while the scheduler is out, saying so, and recovers', async () => {
    slurm.state.down = true;
    await h.deps.poller.pollNow();
    const during = await get<{
      list: { jobId: string }[];
      status: { error: string | null; downSince: number | null };
    }>(demo, '/job/list.action');
    expect(during.data.list.map((j) => j.jobId)).toEqual(['7', '4']);
    expect(during.data.status.error).toMatch(/Unable to contact slurm controller/);
    expect(during.data.status.downSince).toBeGreaterThan(0);
    slurm.state.down = false;
    await h.deps.poller.pollNow();
    expect(
      (await get<{ status: { error: string | null } }>(demo, '/job/list.action')).data.status.error,
    ).toBeNull();
  });
});

describe('one poller per cluster across instances', () => {
  it('reads the queue once per interval whichever instances run, sharing it through the KV store', async () => {
    const kv = new MemoryKv();
    const slurm = recordedSlurm();
    const instances = await Promise.all(
      [0, 1, 2].map(() =>
        jobsHarness({
          users: ['demo'],
          env: { JOBS_USER_MODE: 'single', JOBS_POLL_INTERVAL_S: '600' },
          opts: { run: slurm.run, kv, noPolling: true },
        }),
      ),
    );
    try {
      // Every instance's timer ticks at once, twice: within one interval only one of them reads the queue.
      await Promise.all(instances.flatMap((h) => [h.deps.poller.tick(), h.deps.poller.tick()]));
      expect(slurm.reads()).toBe(1);
      for (const h of instances) {
        const token = await h.token('demo');
        const res = await h.app.inject({ method: 'GET', url: '/job/list.action', headers: { token } });
        expect(res.json<{ data: { list: unknown[] } }>().data.list).toHaveLength(2);
      }
      expect(slurm.reads()).toBe(1);
    } finally {
      for (const h of instances) await h.close();
      await kv.close();
    }
  });
});
