import type { EfileConfig } from '../config';
import { serviceAccount, type PathResolver } from '@hpc/cluster-kit';
import { LocalUserFs } from './local';
import type { UserFs } from './types';

/**
 * The user file system of this instance (issue 10 §1): in this process (single mode), or per-user worker
 * processes (unix mode), behind one interface.
 */
export async function createUserFs(config: EfileConfig, resolver: PathResolver): Promise<UserFs> {
  if (config.EFILE_USER_MODE !== 'unix') return new LocalUserFs(resolver);
  if (process.getuid?.() !== 0) throw new Error('EFILE_USER_MODE=unix needs efile to start as root');
  const { workerUserFs } = await import('./worker-client');
  // Worker sockets belong to the account the front end will run as (root when it stays root, as in tests).
  const service = serviceAccount(config.EFILE_SERVICE_USER);
  const w = workerUserFs(config, resolver);
  await w.startLauncher(service?.uid ?? 0);
  return w;
}
