import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Test support for unix mode (issue 10 §3), shared by efile's and the all-in-one's tests, the e2e suite and the unix
 * bench: real users made with useradd and removed afterwards.
 */
export const isRoot = process.getuid?.() === 0;

/** True when the system knows this user (a machine's own account is never made or removed by a test). */
export function known(user: string): boolean {
  try {
    execFileSync('getent', ['passwd', user], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const idOf = (u: string) => Number(execFileSync('id', ['-u', u], { stdio: 'pipe' }).toString().trim());

const quiet = (cmd: string, ...args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
  } catch {
    /* not there */
  }
};

/**
 * The users this process made. A test never removes or re-creates a user that existed before it: a machine's own
 * accounts, and the real demo users `npm run start:cluster` makes (and CI keeps for the tests on the real Slurm),
 * must survive every other test file (issue 22).
 */
const madeHere = new Set<string>();

/** Removes the users this process made among `names`; any other user is left as it is. */
export function removeUsers(names: string[]): void {
  for (const u of names) {
    if (!madeHere.has(u)) continue;
    quiet('userdel', u);
    madeHere.delete(u);
  }
}

/** Removes groups made by a test. */
export function removeGroups(names: string[]): void {
  for (const g of names) quiet('groupdel', g);
}

/**
 * Creates the login users that do not exist yet, without homes (their homes live under the test's file-system
 * root); a user that exists already is kept as it is, and never removed by `removeUsers` (a left-over of an
 * interrupted run included: names unique to a test make those harmless). `extra` adds useradd options per user
 * (`-G group`, `-r`, `-s shell`). Returns the names made here.
 */
export function createUsers(names: string[], extra: Record<string, string[]> = {}): string[] {
  const made: string[] = [];
  for (const u of names) {
    if (known(u)) continue;
    execFileSync('useradd', ['-M', '-s', '/bin/bash', ...(extra[u] ?? []), u]);
    madeHere.add(u);
    made.push(u);
  }
  return made;
}

/** Lets users walk down to the test root: temp folders are 0700 and root-owned. */
export function openPathTo(dir: string): void {
  for (let d = dir; d !== '/'; d = path.dirname(d)) {
    const st = fs.statSync(d);
    if ((st.mode & 0o5) !== 0o5) fs.chmodSync(d, (st.mode & 0o7777) | 0o755);
  }
}

/** A home folder owned by its user, 0700. */
export function makeHome(host: string, user: string): void {
  fs.mkdirSync(host, { recursive: true });
  fs.chownSync(host, idOf(user), idOf(user));
  fs.chmodSync(host, 0o700);
}

/** Workers run from the bundle, as in production (under tsx every new uid would compile each module anew). */
export async function buildWorkerBundle(): Promise<void> {
  const script = '../scripts/build-servers.mjs';
  const { buildEfileWorker } = (await import(/* @vite-ignore */ script)) as {
    buildEfileWorker: () => Promise<void>;
  };
  await buildEfileWorker();
}
