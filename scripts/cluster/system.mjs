// What every part of `npm run start:cluster` needs of the machine: commands, packages, daemons started by hand
// (no systemd here: Debian's policy-rc.d refuses service starts), waiting for a condition, and the record of what
// this script started, so that stopping stops exactly that and nothing an operator started.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Runs a command, returns its stdout; throws with its stderr on failure. */
export function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], ...opts });
}

/** Runs a command; true when it exits 0 (output discarded). */
export function ok(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { stdio: 'ignore', timeout: 20_000, ...opts }).status === 0;
}

export const has = (cmd) => ok('sh', ['-c', `command -v ${cmd}`]);

export function isDebian() {
  return fs.existsSync('/etc/debian_version') && /ID=debian/.test(readOr('/etc/os-release', ''));
}

export const readOr = (file, fallback) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
};

/** Installs the Debian packages not yet installed (`dpkg -s`), quietly; one `apt-get update` first. */
export function installMissing(packages, log) {
  const missing = packages.filter((p) => !ok('dpkg', ['-s', p]));
  if (missing.length === 0) return;
  log(`installing ${missing.join(' ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env, stdio: 'inherit' });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env, stdio: 'inherit' });
}

/** Whether a process with this pid runs (and is not a zombie). */
export function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/\) Z /.test(readOr(`/proc/${pid}/stat`, ''));
}

export const pidFrom = (file) => {
  const n = Number(readOr(file, '').trim());
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * Starts a daemon in the background, detached from this process (it outlives a daemons-only run), its output
 * appended to `logFile`. Returns the child's pid; daemons that fork themselves report their own pid file instead.
 */
export function startDetached(cmd, args, logFile, opts = {}) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', out, out], ...opts });
  fs.closeSync(out);
  child.unref();
  return child.pid;
}

/** Waits until `check()` is true, polling; throws `what` with the log's last lines when it never becomes true. */
export async function waitFor(what, check, { timeoutMs = 60_000, everyMs = 250, logFile } = {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) {
      const tail = logFile ? `\n--- last lines of ${logFile}:\n${tailOf(logFile, 15)}` : '';
      throw new Error(`${what}: not ready after ${Math.round(timeoutMs / 1000)} s${tail}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const tailOf = (file, n) => readOr(file, '').trimEnd().split('\n').slice(-n).join('\n');

/** Sends SIGTERM, waits for the exit, then SIGKILL. */
export async function stopPid(pid, timeoutMs = 15_000) {
  if (!alive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const end = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/**
 * The record of what this script started (`<stateDir>/started.json`: name → pid). A daemon found running but not in
 * the record was started by someone else and is used, never stopped.
 */
export function startedRecord(stateDir) {
  const file = path.join(stateDir, 'started.json');
  const read = () => JSON.parse(readOr(file, '{}'));
  const write = (o) => {
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(`${file}.new`, JSON.stringify(o, null, 2));
    fs.renameSync(`${file}.new`, file);
  };
  return {
    get: (name) => read()[name] ?? null,
    all: () => read(),
    set(name, pid) {
      write({ ...read(), [name]: pid });
    },
    forget(name) {
      const o = read();
      delete o[name];
      write(o);
    },
  };
}
