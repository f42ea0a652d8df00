// The demo users as real Unix users of this machine, each with a Slurm association to the Slurm account of its
// portal account on the demo cluster 11250 (the seed in apps/portal/src/features/identity/identity.seed.ts). A
// portal account's Slurm account has the portal account's id as its name (docs/DECISIONS.md).
import fs from 'node:fs';
import { ok, run } from './system.mjs';
import { CLUSTER_NAME } from './slurm.mjs';

/** Compute users of the demo cluster 11250 and the account each charges there (wangwu's is disabled in the portal). */
export const DEMO_USERS = [
  { user: 'demo', account: 'acct-demo-hf', group: 'demo-group' },
  { user: 'lisi', account: 'acct-lisi' },
  { user: 'wangwu', account: 'acct-wangwu-hf' },
];
export const HOME_ROOT = '/public/home';
/**
 * The group's shared folder the seed grants to demo-group's members: the group's, setgid, closed to others. Made
 * by E-File on first use it was its first user's and 0755, so every account of the machine read what the group
 * put there (found from outside, 2026-12-01).
 */
export const DEMO_SHARES = [{ path: '/public/share/demo-group', group: 'demo-group' }];

const known = (user) => ok('getent', ['passwd', user]);
const groupKnown = (group) => ok('getent', ['group', group]);

/**
 * Creates each missing user (login shell bash, home /public/home/<user>) and group; an existing user is kept as
 * it is. Homes are not made here: the all-in-one's E-File or job service, whichever the user calls first, makes a
 * demo home with its sample files, owned by the user (packages/cluster-kit/src/paths/demo-home.ts).
 */
export function ensureUnixUsers(log) {
  fs.mkdirSync(HOME_ROOT, { recursive: true, mode: 0o755 });
  for (const { user, group } of DEMO_USERS) {
    if (group && !groupKnown(group)) run('groupadd', [group]);
    if (known(user)) {
      if (group) run('usermod', ['-aG', group, user]);
      continue;
    }
    run('useradd', [
      '-M',
      '-d',
      `${HOME_ROOT}/${user}`,
      '-s',
      '/bin/bash',
      ...(group ? ['-G', group] : []),
      user,
    ]);
    log(`user ${user}: created (home ${HOME_ROOT}/${user})`);
  }
  for (const { path, group } of DEMO_SHARES) {
    fs.mkdirSync(path, { recursive: true });
    run('chgrp', [group, path]);
    fs.chmodSync(path, 0o2770);
  }
}

const sacctmgr = (...args) => run('sacctmgr', ['-i', ...args], { timeout: 30_000 });
const listed = (...args) => run('sacctmgr', ['-n', '-P', ...args], { timeout: 30_000 }).trim() !== '';

/** Makes a Slurm account (idempotent). */
export function ensureSlurmAccount(account, description = account) {
  if (!listed('show', 'account', account, 'format=account'))
    sacctmgr(
      'add',
      'account',
      account,
      `cluster=${CLUSTER_NAME}`,
      `Description=${description}`,
      'Organization=hpc-portal',
    );
}

/** Associates a Unix user with a Slurm account (idempotent); the first becomes the user's default account. */
export function ensureAssociation(user, account) {
  if (!listed('show', 'assoc', `user=${user}`, `account=${account}`, 'format=user'))
    sacctmgr('add', 'user', user, `account=${account}`, `cluster=${CLUSTER_NAME}`);
}

export function ensureDemoAssociations(log) {
  for (const { user, account } of DEMO_USERS) {
    ensureSlurmAccount(account);
    ensureAssociation(user, account);
  }
  log(`Slurm associations: ${DEMO_USERS.map((u) => `${u.user}→${u.account}`).join(', ')}`);
}
