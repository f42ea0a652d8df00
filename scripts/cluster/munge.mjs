// munged, the credential daemon every Slurm daemon and command authenticates through (AuthType=auth/munge).
import fs from 'node:fs';
import { alive, ok, pidFrom, run, startDetached, waitFor } from './system.mjs';

const PID_FILE = '/run/munge/munged.pid';
const LOG = '/var/log/munge/munged.log';

const answers = () => ok('sh', ['-c', 'munge -n | unmunge']);

/** Starts munged as the munge user unless it answers already; returns its pid when this call started it. */
export async function startMunge({ log }) {
  if (answers()) {
    log('munged: running already');
    return null;
  }
  // Debian's postinst makes the key; a machine where it is missing gets one now (never replaced when present).
  if (!fs.existsSync('/etc/munge/munge.key')) run('runuser', ['-u', 'munge', '--', 'mungekey', '--create']);
  for (const dir of ['/run/munge', '/var/log/munge', '/var/lib/munge']) {
    fs.mkdirSync(dir, { recursive: true });
    run('chown', ['munge:munge', dir]);
  }
  fs.rmSync(PID_FILE, { force: true });
  // munged forks into the background itself once its socket is ready.
  // Its own log (LOG) must be the munge user's: munged refuses a log file root made. Its early output goes beside.
  startDetached('runuser', ['-u', 'munge', '--', '/usr/sbin/munged'], '/var/log/munge/munged.out');
  await waitFor('munged', answers, { timeoutMs: 20_000, logFile: LOG });
  log('munged: started');
  return pidFrom(PID_FILE);
}

export async function stopMunge(pid) {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  await waitFor('munged to stop', () => !alive(pid), { timeoutMs: 10_000 }).catch(() => undefined);
}
