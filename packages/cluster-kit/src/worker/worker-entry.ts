import fs from 'node:fs';
import path from 'node:path';
import { launcherSettings, runLauncher } from './launcher';
import { becomeUser, hostWorker, type WorkerIdentity, type WorkerService } from './worker-host';

export interface WorkerEntryOptions {
  /** This entry module's own file (`fileURLToPath(import.meta.url)`): the launcher forks it again as each worker. */
  entry: string;
  /** The service's name, for the usage line. */
  name: string;
  /** The environment variable holding the service's run dir, for the admin's `restart <user>`. */
  runDirVariable: string;
  /**
   * Makes the service's worker, called once the process is the user: import what it needs here (dynamically), so
   * that nothing of the service runs before the identity drop.
   */
  start(identity: WorkerIdentity): Promise<WorkerService>;
}

/**
 * A service's worker entry (one script, bundled on its own so a worker starts in milliseconds), in three roles:
 *
 *   launcher: the root launcher (launcher.ts), forked by the front end while it is root;
 *   worker <user> <uid> <gid> <umask> <idle s>: forked by the launcher; becomes the user first (worker-host.ts),
 *     then serves what `start` makes on the socket it is handed;
 *   restart <user>: the admin command; stops that user's worker (the next request starts a new one, with the
 *     user's current groups).
 */
export async function runWorkerEntry(opts: WorkerEntryOptions): Promise<void> {
  const [role, ...rest] = process.argv.slice(2);
  if (role === 'worker') {
    const [user, uid, gid, umask, idle] = rest;
    const identity: WorkerIdentity = {
      user: user ?? '',
      uid: Number(uid),
      gid: Number(gid),
      umask: Number(umask),
      idleSeconds: Number(idle) > 0 ? Number(idle) : 300,
    };
    // Identity first: nothing of the user's is touched before the process is the user.
    becomeUser(identity);
    hostWorker(await opts.start(identity), identity.idleSeconds);
  } else if (role === 'launcher') {
    runLauncher(opts.entry, launcherSettings());
  } else if (role === 'restart') {
    const user = rest[0] ?? '';
    if (!/^[a-z_][a-z0-9_.-]{0,31}\$?$/i.test(user)) usage(opts.name);
    const pidFile = path.join(process.env[opts.runDirVariable] ?? '', 'workers', `${user}.pid`);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    process.kill(pid, 'SIGTERM');
    console.log(`stopped the worker of ${user} (pid ${pid}); its next request starts a new one`);
  } else usage(opts.name);
}

function usage(name: string): never {
  console.error(`usage: ${name}-worker launcher | worker … | restart <user>`);
  process.exit(64);
}
