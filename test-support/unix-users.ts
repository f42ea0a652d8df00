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

/** Removes the test's users (and left-overs of an interrupted run). */
export function removeUsers(names: string[]): void {
  for (const u of names) quiet('userdel', u);
}

/** Removes groups made by a test. */
export function removeGroups(names: string[]): void {
  for (const g of names) quiet('groupdel', g);
}

/**
 * Creates login users without homes (their homes live under the test's file-system root), after removing
 * left-overs of an interrupted run. `extra` adds useradd options per user (`-G group`, `-r`, `-s shell`).
 */
export function createUsers(names: string[], extra: Record<string, string[]> = {}): void {
  removeUsers(names);
  for (const u of names) execFileSync('useradd', ['-M', '-s', '/bin/bash', ...(extra[u] ?? []), u]);
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
