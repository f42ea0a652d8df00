// MariaDB for slurmdbd (Slurm's accounting: sacct, associations). A server that answers already (port 3306, root
// through the local socket) is used as it is and never stopped; otherwise this starts Debian's mariadbd by hand.
import fs from 'node:fs';
import { ok, pidFrom, run, startDetached, stopPid, waitFor } from './system.mjs';

const PID_FILE = '/run/mysqld/mysqld.pid';
const LOG = '/var/log/mysql/hpc-cluster-mariadbd.log';

const answers = () => ok('mariadb-admin', ['--user=root', 'ping'], { timeout: 5_000 });

/** Starts mariadbd unless a server answers; returns its pid when this call started it. */
export async function startMariadb({ log }) {
  if (answers()) {
    log('MariaDB: running already (used as it is)');
    return null;
  }
  fs.mkdirSync('/run/mysqld', { recursive: true });
  run('chown', ['mysql:mysql', '/run/mysqld']);
  fs.mkdirSync('/var/log/mysql', { recursive: true });
  run('chown', ['mysql:adm', '/var/log/mysql']);
  // The package's postinst initialises the data directory; a machine where that never ran gets it now.
  if (!fs.existsSync('/var/lib/mysql/mysql')) {
    log('MariaDB: initialising /var/lib/mysql');
    run('mariadb-install-db', [
      '--user=mysql',
      '--datadir=/var/lib/mysql',
      '--auth-root-authentication-method=socket',
    ]);
  }
  startDetached('/usr/sbin/mariadbd', ['--user=mysql', `--pid-file=${PID_FILE}`], LOG);
  await waitFor('MariaDB', answers, { timeoutMs: 60_000, logFile: LOG });
  log('MariaDB: started');
  return pidFrom(PID_FILE);
}

/**
 * The database and account slurmdbd uses (`slurm`@`localhost`, a password of its own only slurmdbd.conf holds).
 * Idempotent: the account's password is set to the one given every time.
 */
export function ensureSlurmDatabase(password) {
  const sql = [
    'CREATE DATABASE IF NOT EXISTS slurm_acct_db',
    `CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '${password}'`,
    `ALTER USER 'slurm'@'localhost' IDENTIFIED BY '${password}'`,
    "GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost'",
    'FLUSH PRIVILEGES',
  ].join('; ');
  run('mariadb', ['--user=root', '-e', sql]);
}

export const stopMariadb = (pid) => stopPid(pid, 60_000);
