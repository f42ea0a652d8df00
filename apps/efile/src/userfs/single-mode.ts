import fs from 'node:fs';
import path from 'node:path';
import type { EfileConfig } from '../config';
import type { PathResolver } from '@hpc/cluster-kit';
import { realUserName } from '../fs/owners';

/**
 * The homes of real users of this machine in the cluster's home folder (the parent of EFILE_HOME_PATTERN): entries
 * owned by an account with uid ≥ 1000 other than this process's. In single mode efile reads and writes every user's
 * files with its own rights, so on such a machine one portal user's mistake or a link can reach another user's
 * real files: that is not isolation (docs/OPERATIONS.md). At most `max` names; none when the folder is missing.
 */
export function realUserHomes(config: EfileConfig, resolver: PathResolver, max = 5): string[] {
  const pattern = config.EFILE_HOME_PATTERN;
  if (!pattern.endsWith('/{user}')) return [];
  const parent = resolver.hostOf(pattern.slice(0, -'/{user}'.length) || '/');
  const me = process.getuid?.() ?? -1;
  const found: string[] = [];
  let dir: fs.Dir | null = null;
  try {
    dir = fs.opendirSync(parent);
    // Bounded: a centre's home folder may hold thousands of entries; a few are enough to warn.
    for (
      let d = dir.readSync(), seen = 0;
      d && seen < 2000 && found.length < max;
      d = dir.readSync(), seen++
    ) {
      const st = fs.lstatSync(path.join(parent, d.name), { throwIfNoEntry: false });
      if (st?.isDirectory() && st.uid !== me && realUserName(st.uid)) found.push(d.name);
    }
  } catch {
    return found;
  } finally {
    dir?.closeSync();
  }
  return found;
}

/** The start-up warning of single mode on a machine whose users' homes it serves, or null. */
export function singleModeWarning(config: EfileConfig, resolver: PathResolver): string | null {
  if (config.EFILE_USER_MODE === 'unix') return null;
  const homes = realUserHomes(config, resolver);
  if (homes.length === 0) return null;
  return (
    `Single mode serves the homes of real users of this machine (${homes.join(', ')}): efile reads and writes ` +
    `every user's files as its own account, so this is not isolation between users. Use EFILE_USER_MODE=unix ` +
    `on a multi-user machine (docs/OPERATIONS.md).`
  );
}
