import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { isRoot } from './unix-users';

/**
 * The real Slurm of `npm run start:cluster` (issue 22 §5) as tests and the bench use it: whether it answers, and
 * Slurm accounts and associations of a test's own (prefixed, removed afterwards).
 */
const answers = (cmd: string, args: string[]) =>
  spawnSync(cmd, args, { stdio: 'pipe', timeout: 20_000 }).status === 0;

/** Why the tests on the real scheduler cannot run here, or null when they can. */
export function schedulerMissing(): string | null {
  if (!isRoot) return 'not root (the job worker runs as each user; CI runs as root)';
  if (!answers('scontrol', ['ping']))
    return 'no slurmctld answers (start it: npm run start:cluster -- --daemons-only)';
  if (!answers('sacctmgr', ['-n', 'show', 'cluster']))
    return 'no slurmdbd answers (npm run start:cluster -- --daemons-only)';
  return null;
}

const sacctmgr = (...args: string[]) =>
  execFileSync('sacctmgr', ['-i', ...args], { stdio: 'pipe', timeout: 60_000 }).toString();

const ACCOUNTING_LOCK = '/run/lock/hpc-test-slurm-accounting';
const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Slurm's accounting to this test file alone, from before its first `addAccount` until after its last
 * `removeAccount` (call the function it resolves with). slurmdbd (22.05) keeps its associations as a nested set,
 * and changes from two processes close together corrupt it: three `sacctmgr add account` side by side left two
 * (each exiting 0 with the usual report), and the job tests' two files, whose setups ran side by side, lost a user's
 * association when the other file removed its own account (8 of 11 failed, every run of the two together; one
 * command at a time under `flock` did not help, the deletion still took the other file's association). A lock
 * folder holds the owner's pid; a dead owner's is taken over.
 */
export async function lockAccounting(timeoutMs = 300_000): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  // Taken by renaming a folder that already holds the pid: a rename onto a lock folder (never empty) fails.
  const mine = `${ACCOUNTING_LOCK}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.mkdirSync(mine);
  fs.writeFileSync(`${mine}/pid`, String(process.pid));
  for (;;) {
    try {
      fs.renameSync(mine, ACCOUNTING_LOCK);
      return () => fs.rmSync(ACCOUNTING_LOCK, { recursive: true, force: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw e;
    }
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(`${ACCOUNTING_LOCK}/pid`, 'utf8'));
    } catch {
      // Released meanwhile: try again at once.
      continue;
    }
    if (Number.isFinite(owner) && !pidAlive(owner))
      fs.rmSync(ACCOUNTING_LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) {
      fs.rmSync(mine, { recursive: true, force: true });
      throw new Error(`Slurm's accounting stayed locked by pid ${owner} (${ACCOUNTING_LOCK})`);
    } else await pause(200);
  }
}
const listed = (...args: string[]) =>
  execFileSync('sacctmgr', ['-n', '-P', ...args], { stdio: 'pipe', timeout: 60_000 })
    .toString()
    .trim() !== '';

/** The Slurm cluster's name (from `scontrol show config`). */
export function clusterName(): string {
  const out = execFileSync('scontrol', ['show', 'config'], { stdio: 'pipe' }).toString();
  return /^ClusterName\s*=\s*(\S+)/m.exec(out)?.[1] ?? '';
}

/** Makes a Slurm account and associates users with it (idempotent). */
export function addAccount(account: string, users: string[]): void {
  const cluster = clusterName();
  if (!listed('show', 'account', account, 'format=account'))
    sacctmgr('add', 'account', account, `cluster=${cluster}`, 'Description=test', 'Organization=test');
  for (const u of users)
    if (!listed('show', 'assoc', `user=${u}`, `account=${account}`, 'format=user'))
      sacctmgr('add', 'user', u, `account=${account}`, `cluster=${cluster}`);
}

/** Removes a test's users' associations and its account (their jobs' records stay in accounting, as Slurm keeps). */
export function removeAccount(account: string, users: string[]): void {
  for (const u of users)
    spawnSync('sacctmgr', ['-i', 'delete', 'user', u, `account=${account}`], { stdio: 'ignore' });
  spawnSync('sacctmgr', ['-i', 'delete', 'account', account], { stdio: 'ignore' });
}

/** Cancels every job of these users (a test's leftovers), as root. */
export function cancelJobsOf(users: string[]): void {
  for (const u of users) spawnSync('scancel', ['-u', u], { stdio: 'ignore' });
}

const CTLD_PID = '/run/slurmctld.pid';
const RECORD = '/var/lib/hpc-portal-cluster/started.json';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops slurmctld (the outage test), waiting until it no longer answers. */
export async function stopSlurmctld(): Promise<void> {
  const pid = Number(fs.readFileSync(CTLD_PID, 'utf8').trim());
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 300 && alive(pid); i++) await pause(100);
  if (alive(pid)) throw new Error('slurmctld did not stop');
}

/**
 * Starts slurmctld again as `npm run start:cluster` does (detached, in the foreground mode), waits until it answers
 * and its node is back, and puts the new pid in that script's record of what it started, so that its `--stop` still
 * stops it.
 */
export async function restartSlurmctld(): Promise<void> {
  const out = fs.openSync('/var/log/slurm/slurmctld.out', 'a');
  const child = spawn('/usr/sbin/slurmctld', ['-D'], { detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  for (let i = 0; i < 600 && !answers('scontrol', ['ping']); i++) await pause(100);
  if (!answers('scontrol', ['ping'])) throw new Error('slurmctld did not come back');
  try {
    const record = JSON.parse(fs.readFileSync(RECORD, 'utf8')) as Record<string, unknown>;
    if (record.slurmctld)
      fs.writeFileSync(RECORD, JSON.stringify({ ...record, slurmctld: child.pid }, null, 2));
  } catch {
    /* started by someone else: nothing recorded */
  }
  for (let i = 0; i < 300; i++) {
    const states = execFileSync('sinfo', ['-h', '-N', '-o', '%T'], { stdio: 'pipe' }).toString();
    if (!/down|unk|not_resp/i.test(states)) return;
    await pause(200);
  }
}

/** The job service's worker runs from its bundle, as in production (under tsx each new uid compiles it anew). */
export async function buildJobsWorkerBundle(): Promise<void> {
  const script = '../scripts/build-servers.mjs';
  const { buildJobsWorker } = (await import(/* @vite-ignore */ script)) as {
    buildJobsWorker: () => Promise<void>;
  };
  await buildJobsWorker();
}
