import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import { CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { ClusterKitText } from '../messages';

const execFileAsync = promisify(execFile);

export interface Account {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

export interface AccountRules {
  minUid: number;
  refusedShells: string[];
}

/** A name that could be an option or carry anything odd is no user of ours. */
const USER_NAME = /^[a-z_][a-z0-9_.-]{0,31}\$?$/i;

/** `getent passwd`'s line for `name`, as an account (null when it names another). */
function accountOf(name: string, line: string): Account | null {
  const [n, , uid, gid, , home, shell] = line.trim().split(':');
  if (n !== name || uid === undefined || gid === undefined) return null;
  return { name, uid: Number(uid), gid: Number(gid), home: home ?? '', shell: shell ?? '' };
}

/** The system's answer for a user name (getent: local files, LDAP or SSSD alike), or null when unknown. */
export function lookupAccount(name: string): Account | null {
  if (!USER_NAME.test(name)) return null;
  try {
    return accountOf(name, execFileSync('getent', ['passwd', name], { encoding: 'utf8' }));
  } catch {
    return null;
  }
}

/** `lookupAccount` without holding the event loop (a request's check: getent may ask LDAP). */
export async function lookupAccountAsync(name: string): Promise<Account | null> {
  if (!USER_NAME.test(name)) return null;
  try {
    return accountOf(name, (await execFileAsync('getent', ['passwd', name], { encoding: 'utf8' })).stdout);
  } catch {
    return null;
  }
}

/**
 * The rules for starting a worker (issue 10 §1), checked by the front end and again by the root launcher: no root,
 * no uid below the minimum (system accounts), no unknown user, no refused login shell. Throws the spec's codes:
 * 601009 for an unknown user, 1017 for a refused one.
 */
export function checkAccount(name: string, rules: AccountRules): Account {
  return accountAllowed(name, lookupAccount(name), rules);
}

/** `checkAccount` without holding the event loop (E-Shell checks on every ticket). */
export async function checkAccountAsync(name: string, rules: AccountRules): Promise<Account> {
  return accountAllowed(name, await lookupAccountAsync(name), rules);
}

function accountAllowed(name: string, a: Account | null, rules: AccountRules): Account {
  if (!a) throw new AppError(CommonCodes.clusterUserMissing, ClusterKitText.clusterUserMissing(name));
  if (a.uid === 0 || a.gid === 0) throw new AppError(CommonCodes.noUserPermission, ClusterKitText.neverRoot);
  if (a.uid < rules.minUid)
    throw new AppError(CommonCodes.noUserPermission, ClusterKitText.uidBelowMinimum(name));
  if (rules.refusedShells.includes(a.shell))
    throw new AppError(CommonCodes.noUserPermission, ClusterKitText.shellRefused(name));
  return a;
}

export const parseShells = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The node's default umask for users (login.defs UMASK), 022 when unset. */
export function defaultUmask(): number {
  try {
    const m = /^\s*UMASK\s+([0-7]{3,4})\s*$/m.exec(fs.readFileSync('/etc/login.defs', 'utf8'));
    if (m) return parseInt(m[1]!, 8);
  } catch {
    /* no login.defs */
  }
  return 0o022;
}
