import type { EfileConfig } from '../config';
import type { PathResolver } from '../fs/path-resolver';
import { LocalUserFs } from './local';
import type { UserFs } from './types';

/** The user file system of this instance (issue 10 §1). */
export function createUserFs(_config: EfileConfig, resolver: PathResolver): Promise<UserFs> {
  return Promise.resolve(new LocalUserFs(resolver));
}
