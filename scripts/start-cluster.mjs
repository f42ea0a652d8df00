// `npm run start:cluster`: makes this Debian machine a small real cluster and starts the portal on it (issue 22 §1):
// munged, MariaDB, slurmdbd, slurmctld and slurmd started by hand with the project's configuration, the demo users
// as real Unix users with Slurm associations, Debian's sshd with the portal's SSH CA when scripts/cluster/sshd.mjs
// is there, then the all-in-one portal in unix mode with the job service of the demo cluster 11250 mounted.
// Ctrl-C stops the portal and every daemon this script started (never one it found running).
//
//   npm run start:cluster                      everything, the portal in the foreground
//   npm run start:cluster -- --daemons-only    the daemons, users and associations, then exit (CI, the bench)
//   npm run start:cluster -- --stop            stop what a --daemons-only run started
//
// Documented in docs/OPERATIONS.md ("A one-machine cluster").
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMariadb, stopMariadb } from './cluster/mariadb.mjs';
import { startMunge, stopMunge } from './cluster/munge.mjs';
import { startSlurm, stopSlurm } from './cluster/slurm.mjs';
import { installMissing, isDebian, startedRecord } from './cluster/system.mjs';
import { ensureDemoAssociations, ensureUnixUsers } from './cluster/users.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['munge', 'slurmctld', 'slurmd', 'slurm-client', 'slurmdbd', 'mariadb-server'];
/** The demo cluster whose scheduler this machine becomes (its job service is mounted at /jobs/<id>). */
const CLUSTER_ID = '11250';
const stateDir = process.env.CLUSTER_STATE_DIR ?? '/var/lib/hpc-portal-cluster';
const flags = new Set(process.argv.slice(2));
const unknown = [...flags].filter((f) => !['--daemons-only', '--stop'].includes(f));
const log = (line) => console.log(`  [cluster] ${line}`);

if (unknown.length > 0) {
  console.error(`start:cluster: unknown option ${unknown.join(' ')} (--daemons-only, --stop)`);
  process.exit(2);
}
if (process.getuid?.() !== 0) {
  console.error(
    'start:cluster makes this machine a cluster (Slurm daemons, Unix users, a portal that runs as each user): ' +
      'run it as root, e.g. `sudo npm run start:cluster`. `npm start` runs the portal without a scheduler.',
  );
  process.exit(2);
}
if (!isDebian()) {
  console.error(
    "start:cluster installs and starts Debian's own packages (munge, slurm*, mariadb-server): it runs on Debian " +
      'only. On another system, point the portal at your Slurm (docs/OPERATIONS.md, "Jobs on an existing Slurm").',
  );
  process.exit(2);
}

const record = startedRecord(stateDir);
const sshdModule = path.join(root, 'scripts/cluster/sshd.mjs');

async function stopAll() {
  const started = record.all();
  if (started.portal) log('portal: stopping');
  if (fs.existsSync(sshdModule) && started.sshd) {
    const sshd = await import(pathToFileURL(sshdModule).href);
    await sshd.stop({ stateDir });
    record.forget('sshd');
    log('sshd: stopped');
  }
  await stopSlurm(started, log);
  for (const name of ['slurmd', 'slurmctld', 'slurmdbd']) record.forget(name);
  if (started.mariadb) {
    await stopMariadb(started.mariadb);
    record.forget('mariadb');
    log('MariaDB: stopped');
  }
  if (started.munged) {
    await stopMunge(started.munged);
    record.forget('munged');
    log('munged: stopped');
  }
}

if (flags.has('--stop')) {
  await stopAll();
  process.exit(0);
}

let extraEnv = {};
try {
  installMissing(PACKAGES, log);
  const munged = await startMunge({ log });
  if (munged) record.set('munged', munged);
  const mariadb = await startMariadb({ log });
  if (mariadb) record.set('mariadb', mariadb);
  await startSlurm({ log, record: (name, pid) => record.set(name, pid) });
  ensureUnixUsers(log);
  ensureDemoAssociations(log);
  if (fs.existsSync(sshdModule)) {
    // The shell service's part (engineer "eshell"): Debian's sshd with the portal's SSH CA.
    const sshd = await import(pathToFileURL(sshdModule).href);
    const started = await sshd.start({ stateDir, log });
    record.set('sshd', true);
    extraEnv = started?.env ?? {};
  }
} catch (e) {
  console.error(`start:cluster failed: ${e instanceof Error ? e.message : String(e)}`);
  console.error('Stopping what was started.');
  await stopAll();
  process.exit(1);
}

if (flags.has('--daemons-only')) {
  log(`daemons running; \`npm run start:cluster -- --stop\` stops what this started (record: ${stateDir})`);
  process.exit(0);
}

const { buildAll } = await import('./build.mjs');
await buildAll();
const env = {
  UV_THREADPOOL_SIZE: '64',
  ...process.env,
  ...extraEnv,
  // Each user's files and jobs are handled by a process running as that user.
  EFILE_USER_MODE: 'unix',
  // The demo cluster whose scheduler is this machine: its E-File serves the real file system (homes under
  // /public/home) and its job service is mounted at /jobs/<id> and published as its gridview_service.
  JOBS_CLUSTER_ID: CLUSTER_ID,
};
const portal = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(root, 'apps/all-in-one/dist/main.js')],
  {
    stdio: 'inherit',
    env,
  },
);
record.set('portal', portal.pid);
let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  portal.kill('SIGTERM');
  await new Promise((r) => (portal.exitCode !== null ? r() : portal.once('exit', r)));
  record.forget('portal');
  await stopAll();
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));
portal.once('exit', (code) => {
  if (!stopping) {
    console.error(`the portal exited (${code}); stopping the cluster`);
    void stop(code ?? 1);
  }
});
