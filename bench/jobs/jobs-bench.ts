/**
 * bench/jobs (issue 22 §5): the job list with 10,000 jobs in the real Slurm's queue (held, so that they stay
 * pending), against the way Open OnDemand's Active Jobs works (one `squeue` per page view).
 *
 *   1. the user's job list answered from the poller's cache: p50/p99 under load (autocannon, 10 connections);
 *   2. the cost of one queue reading (`squeue --json`, the poller's) and of `squeue -u <user>` (OOD's, per page);
 *   3. queue reads slurmctld receives per minute (its own count, `sdiag`) with 1 and with 100 browsers watching
 *      the page (each asks the list every 3 s, as the page does), and with 100 browsers running squeue themselves.
 *
 * Needs root and the scheduler of `npm run start:cluster` (-- --daemons-only). Run: `npx tsx bench/jobs/jobs-bench.ts`
 * (JOBS_BENCH_JOBS=10000, JOBS_BENCH_WINDOW_S=60). Figures go to docs/PERFORMANCE.md by hand.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ApiClient, jobsApi } from '@hpc/api-client';
import { buildJobs, readJobsConfig } from '@hpc/jobs';
import { signClusterToken } from '@hpc/server-kit';
import { exportJWK, generateKeyPair } from 'jose';
import { ms, reporter } from '../bench-kit';
import { createUsers, removeUsers } from '../../test-support/unix-users';
import { addAccount, cancelJobsOf, removeAccount, schedulerMissing } from '../../test-support/slurm-cluster';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const USER = 'jobbench1';
const ACCOUNT = 'jobbench-acct';
const N = Number(process.env.JOBS_BENCH_JOBS ?? 10_000);
const WINDOW_S = Number(process.env.JOBS_BENCH_WINDOW_S ?? 60);
const { say, lines } = reporter();

const missing = schedulerMissing();
if (missing) {
  console.error(`bench/jobs needs the real scheduler: ${missing}`);
  process.exit(2);
}

/** slurmctld's own count of queue reads (REQUEST_JOB_INFO*), from sdiag. */
function queueReads(): number {
  const out = execFileSync('sdiag', { encoding: 'utf8' });
  let n = 0;
  // REQUEST_JOB_INFO (squeue, the poller) and REQUEST_JOB_USER_INFO (squeue -u, what OOD runs per page view).
  for (const m of out.matchAll(/^\s*(REQUEST_JOB_(?:USER_)?INFO\w*)\s+\(\s*\d+\)\s+count:(\d+)/gm))
    n += Number(m[2]);
  return n;
}

/** Submits `count` held jobs as the bench user, `parallel` sbatch at a time. */
async function submitHeld(count: number, parallel: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        await run('runuser', [
          '-u',
          USER,
          '--',
          'sbatch',
          '--hold',
          `--account=${ACCOUNT}`,
          '--time=5',
          '--chdir=/tmp',
          '--output=/dev/null',
          `--job-name=bench${i}`,
          '--wrap=true',
        ]);
      }
    }),
  );
}

/** `browsers` page views asking the list every 3 s for `seconds`; returns the answers they got. */
async function browsersWatching(
  url: string,
  token: string,
  browsers: number,
  seconds: number,
): Promise<number> {
  const api = jobsApi(new ApiClient({ baseUrl: url, headers: () => ({ token }) }), 'bench');
  const end = Date.now() + seconds * 1000;
  let answers = 0;
  await Promise.all(
    Array.from({ length: browsers }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * 3000) / browsers));
      while (Date.now() < end) {
        await api.list({ query: { state: 'all', pageSize: 20 } });
        answers++;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }),
  );
  return answers;
}

/** Open OnDemand's way: every page view runs `squeue -u <user>` itself. */
async function browsersRunningSqueue(browsers: number, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let reads = 0;
  await Promise.all(
    Array.from({ length: browsers }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * 3000) / browsers));
      while (Date.now() < end) {
        await run('squeue', ['-h', '-u', USER, '-o', '%i %T %r'], { maxBuffer: 64 * 1024 * 1024 });
        reads++;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }),
  );
  return reads;
}

createUsers([USER]);
addAccount(ACCOUNT, [USER]);
let service: Awaited<ReturnType<typeof buildJobs>> | null = null;
try {
  say(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Slurm ${execFileSync('sinfo', ['--version'], { encoding: 'utf8' }).trim()}`,
  );
  const t0 = process.hrtime.bigint();
  await submitHeld(N, 8);
  say(`submitted ${N} held jobs in ${(ms(t0) / 1000).toFixed(0)} s`);

  // The poller's reading and OOD's per-page reading, each timed a few times.
  for (const [what, args] of [
    ['squeue --json (the poller, whole queue)', ['--json', '--all']],
    [`squeue -u ${USER} (OOD, per page view)`, ['-h', '-u', USER]],
  ] as const) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const t = process.hrtime.bigint();
      const { stdout } = await run('squeue', [...args], { maxBuffer: 1024 * 1024 * 1024 });
      times.push(ms(t));
      bytes = stdout.length;
    }
    times.sort((a, b) => a - b);
    say(`${what}: median ${times[2]!.toFixed(0)} ms, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  }

  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  const config = readJobsConfig({
    JOBS_CLUSTER_ID: 'bench',
    JOBS_USER_MODE: 'single',
    JOBS_POLL_INTERVAL_S: '3',
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(os.tmpdir(), 'jobs-bench'),
  });
  service = await buildJobs(config, {
    jwks: () => ({ keys: [jwk] }),
    ownerRights: async () => ({
      cun: USER,
      home: '/tmp',
      paths: [],
      st: 'Normal',
      exp_acct: null,
      acct: ACCOUNT,
    }),
  });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const token = await signClusterToken(privateKey, 'k1', {
    sub: '1',
    aud: 'bench',
    cun: USER,
    home: '/tmp',
    paths: [],
    st: 'Normal',
    exp_acct: null,
  });
  const api = jobsApi(new ApiClient({ baseUrl: url, headers: () => ({ token }) }), 'bench');
  const first = await api.list({ query: { state: 'all', pageSize: 20 } });
  say(`the service's list: ${first.total} jobs of ${USER} (${first.counts.pending} pending)`);

  // 1. Latency under load, from the cache (a separate process makes the load).
  const load = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(here, 'load.ts'),
        JSON.stringify({
          url,
          path: '/job/list.action?state=all&pageSize=20',
          token,
          connections: 10,
          duration: 20,
        }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`load exited ${code}`))));
  });
  const r = JSON.parse(load) as {
    rps: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    non2xx: number;
  };
  say(
    `list.action under 10 connections, 20 s: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p90 ${r.p90} ms, p99 ${r.p99} ms, max ${r.max} ms, non-2xx ${r.non2xx}`,
  );

  // 2. Queue reads per minute seen by slurmctld.
  for (const browsers of [1, 100]) {
    const before = queueReads();
    const polls = service.deps.poller.reads;
    const answers = await browsersWatching(url, token, browsers, WINDOW_S);
    const reads = queueReads() - before;
    say(
      `${browsers} browser(s) watching the page for ${WINDOW_S} s: ${answers} answers, slurmctld queue reads ${reads} (${((reads * 60) / WINDOW_S).toFixed(0)}/min), poller readings ${service.deps.poller.reads - polls}`,
    );
  }
  await service.app.close();
  service = null;
  const before = queueReads();
  const reads = await browsersRunningSqueue(100, WINDOW_S);
  say(
    `100 browsers running squeue -u per view (OOD's way) for ${WINDOW_S} s: ${reads} squeue runs, slurmctld queue reads ${queueReads() - before}`,
  );
} finally {
  await service?.app.close();
  cancelJobsOf([USER]);
  removeAccount(ACCOUNT, [USER]);
  removeUsers([USER]);
}
console.log(`\n${lines.join('\n')}`);
