// Slurm on this one machine: the configuration (written by the project, see field-notes "Slurm on one Debian
// machine"), then slurmdbd, slurmctld and slurmd started by hand in that order. The cgroup plugins fail in VMs
// without delegated cgroups, so process tracking is linuxproc and there is no task plugin.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { ensureSlurmDatabase } from './mariadb.mjs';
import { alive, ok, pidFrom, readOr, run, startDetached, stopPid, waitFor } from './system.mjs';

export const SLURM_CONF = '/etc/slurm/slurm.conf';
export const SLURMDBD_CONF = '/etc/slurm/slurmdbd.conf';
/** The cluster's name in Slurm (the demo cluster 11250, Hefei). */
export const CLUSTER_NAME = 'hefei';
const MARK = '# Written by hpc-portal `npm run start:cluster` (scripts/cluster/slurm.mjs).';
const LOGS = '/var/log/slurm';
const PIDS = { slurmdbd: '/run/slurmdbd.pid', slurmctld: '/run/slurmctld.pid', slurmd: '/run/slurmd.pid' };

/** Partitions of the demo cluster: a default one and a short one with a tighter time limit (limits shown). */
const PARTITIONS = [
  'PartitionName=normal Nodes=ALL Default=YES State=UP MaxTime=1-00:00:00 DefaultTime=01:00:00',
  'PartitionName=short Nodes=ALL State=UP MaxTime=00:30:00 DefaultTime=00:10:00',
];

/** The node line from `slurmd -C` (this machine's real CPUs and memory), without its UpTime comment. */
function nodeLine(host) {
  const line = run('slurmd', ['-C'])
    .split('\n')
    .find((l) => l.startsWith('NodeName='));
  if (!line) throw new Error('slurmd -C printed no NodeName line');
  return `${line.trim()} NodeAddr=127.0.0.1 NodeHostname=${host} State=UNKNOWN`;
}

function slurmConf(host) {
  return [
    MARK,
    `ClusterName=${CLUSTER_NAME}`,
    `SlurmctldHost=${host}(127.0.0.1)`,
    'SlurmUser=slurm',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    'StateSaveLocation=/var/lib/slurm/slurmctld',
    'SlurmdSpoolDir=/var/lib/slurm/slurmd',
    `SlurmctldPidFile=${PIDS.slurmctld}`,
    `SlurmdPidFile=${PIDS.slurmd}`,
    `SlurmctldLogFile=${LOGS}/slurmctld.log`,
    `SlurmdLogFile=${LOGS}/slurmd.log`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/slurmdbd',
    'AccountingStorageHost=127.0.0.1',
    // A job must charge an account the user is associated with, within its limits and QOS: the portal checks
    // first, Slurm enforces again.
    'AccountingStorageEnforce=associations,limits,qos',
    'JobCompType=jobcomp/none',
    // Limits are refused at submission (a clear answer in the form) rather than leaving a job pending forever.
    'EnforcePartLimits=ALL',
    // The bench holds 10,000 jobs in the queue (Slurm's default cap is 10,000).
    'MaxJobCount=100000',
    'MinJobAge=300',
    'ReturnToService=2',
    'SchedulerType=sched/backfill',
    'MpiDefault=none',
    nodeLine(host),
    ...PARTITIONS,
    '',
  ].join('\n');
}

function slurmdbdConf(host, password) {
  return [
    MARK,
    'AuthType=auth/munge',
    `DbdHost=${host}`,
    'DbdAddr=127.0.0.1',
    'SlurmUser=slurm',
    `PidFile=${PIDS.slurmdbd}`,
    `LogFile=${LOGS}/slurmdbd.log`,
    'StorageType=accounting_storage/mysql',
    'StorageHost=localhost',
    'StorageUser=slurm',
    `StoragePass=${password}`,
    'StorageLoc=slurm_acct_db',
    '',
  ].join('\n');
}

/**
 * Writes the two configuration files unless someone else's are there: a file without our mark is an operator's
 * Slurm, which this script never overwrites (docs/OPERATIONS.md says how to point the portal at it instead).
 */
function writeConfigs(log) {
  for (const file of [SLURM_CONF, SLURMDBD_CONF]) {
    const text = readOr(file, null);
    if (text !== null && !text.startsWith(MARK))
      throw new Error(
        `${file} exists and was not written by this script: this machine has a Slurm of its own. ` +
          'Point the portal at it instead (docs/OPERATIONS.md, "Jobs on an existing Slurm"), or move the file away.',
      );
  }
  const host = os.hostname().split('.')[0];
  // slurmdbd's database password: kept from the previous run (a running slurmdbd keeps working), else a new one.
  const previous = /^StoragePass=(.+)$/m.exec(readOr(SLURMDBD_CONF, ''))?.[1];
  const password = previous ?? crypto.randomBytes(18).toString('base64url');
  fs.mkdirSync('/etc/slurm', { recursive: true });
  fs.writeFileSync(SLURM_CONF, slurmConf(host), { mode: 0o644 });
  fs.writeFileSync(SLURMDBD_CONF, slurmdbdConf(host, password), { mode: 0o600 });
  fs.chmodSync(SLURMDBD_CONF, 0o600);
  run('chown', ['slurm:slurm', SLURMDBD_CONF]);
  for (const dir of ['/var/lib/slurm/slurmctld', '/var/lib/slurm/slurmd', LOGS]) {
    fs.mkdirSync(dir, { recursive: true });
    run('chown', ['slurm:slurm', dir]);
  }
  log(`Slurm: configuration in ${SLURM_CONF} and ${SLURMDBD_CONF}`);
  return password;
}

const dbdAnswers = () =>
  ok('sacctmgr', ['-n', '-P', 'show', 'cluster', 'format=cluster'], { timeout: 10_000 });
const ctldAnswers = () => /\bUP\b/.test(tryRun('scontrol', ['ping']));
const nodeStates = () => tryRun('sinfo', ['-h', '-N', '-o', '%T']).trim().split('\n').filter(Boolean);
const nodeReady = () => {
  const states = nodeStates();
  return states.length > 0 && states.every((s) => /^(idle|mixed|allocated|completing)/.test(s));
};

function tryRun(cmd, args) {
  try {
    return run(cmd, args, { timeout: 10_000 });
  } catch {
    return '';
  }
}

/** Starts one daemon in the foreground mode (-D), detached, unless it runs already; its pid when started here. */
async function startDaemon(name, args, answers, log) {
  if (answers()) {
    log(`${name}: running already`);
    return null;
  }
  // A pid file left by a daemon that died would make its next start or Debian's prerm fail (field notes).
  const stale = pidFrom(PIDS[name]);
  if (stale && !alive(stale)) fs.rmSync(PIDS[name], { force: true });
  if (stale && alive(stale)) {
    log(`${name}: running already (pid ${stale}), waiting for it to answer`);
    await waitFor(name, answers, { timeoutMs: 60_000, logFile: `${LOGS}/${name}.log` });
    return null;
  }
  const pid = startDetached(`/usr/sbin/${name}`, ['-D', ...args], `${LOGS}/${name}.out`);
  await waitFor(name, answers, { timeoutMs: 90_000, logFile: `${LOGS}/${name}.log` });
  log(`${name}: started (pid ${pid})`);
  return pid;
}

/**
 * Configuration, MariaDB's slurm database, then slurmdbd, the cluster's record in accounting, slurmctld and slurmd.
 * `record(name, pid)` is told of every daemon this call started. Resolves once the node is idle.
 */
export async function startSlurm({ log, record }) {
  const password = writeConfigs(log);
  ensureSlurmDatabase(password);
  const dbd = await startDaemon('slurmdbd', [], dbdAnswers, log);
  if (dbd) record('slurmdbd', dbd);
  // slurmctld registers its cluster itself, but only once it runs; adding it first lets associations be made now.
  if (!tryRun('sacctmgr', ['-n', '-P', 'show', 'cluster', 'format=cluster']).includes(CLUSTER_NAME))
    run('sacctmgr', ['-i', 'add', 'cluster', CLUSTER_NAME]);
  const ctld = await startDaemon('slurmctld', [], ctldAnswers, log);
  if (ctld) record('slurmctld', ctld);
  const slurmd = await startDaemon('slurmd', [], () => alive(pidFrom(PIDS.slurmd)) && nodeReady(), log);
  if (slurmd) record('slurmd', slurmd);
  // A node left down or drained by an earlier run (a daemon killed mid-job) is returned to service.
  if (!nodeReady()) {
    tryRun('scontrol', ['update', `nodename=${os.hostname().split('.')[0]}`, 'state=resume']);
    await waitFor('the node to be idle', nodeReady, { timeoutMs: 60_000, logFile: `${LOGS}/slurmd.log` });
  }
  log(
    `Slurm: node ${nodeStates().join(', ')}; partitions ${tryRun('sinfo', ['-h', '-o', '%P']).trim().replace(/\n/g, ' ')}`,
  );
}

/** Stops the daemons this script started (from its record), slurmd first. */
export async function stopSlurm(started, log) {
  for (const name of ['slurmd', 'slurmctld', 'slurmdbd']) {
    const pid = started[name];
    if (!pid) continue;
    await stopPid(pid, 30_000);
    if (!alive(pidFrom(PIDS[name]))) fs.rmSync(PIDS[name], { force: true });
    log(`${name}: stopped`);
  }
}
