import type { EfileConfig } from '../config';
import type { PathResolver } from '../fs/path-resolver';
import { LocalUserFs } from './local';
import type { UserFs } from './types';

/**
 * The user file system of this instance (issue 10 §1): in this process (single mode), or per-user worker
 * processes (unix mode), behind one interface.
 */
export async function createUserFs(config: EfileConfig, resolver: PathResolver): Promise<UserFs> {
  if (config.EFILE_USER_MODE !== 'unix') return new LocalUserFs(resolver);
  if (process.getuid?.() !== 0) throw new Error('EFILE_USER_MODE=unix needs efile to start as root');
  const { WorkerUserFs } = await import('./worker-client');
  const { lookupAccount } = await import('./accounts');
  // Worker sockets belong to the account the front end will run as (root when it stays root, as in tests).
  const service = config.EFILE_SERVICE_USER ? lookupAccount(config.EFILE_SERVICE_USER) : null;
  if (config.EFILE_SERVICE_USER && !service)
    throw new Error(`EFILE_SERVICE_USER ${config.EFILE_SERVICE_USER} does not exist`);
  const w = new WorkerUserFs(config, resolver);
  await w.startLauncher(service?.uid ?? 0);
  return w;
}
