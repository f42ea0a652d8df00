import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OwnerRights } from '@hpc/contracts';
import { signClusterToken } from '@hpc/server-kit';
import { makePortalKeys } from '@hpc/server-kit/testing';
import { buildJobs } from './app';
import { readJobsConfig } from './config';
import type { JobsDepsOptions } from './deps';

export const CLUSTER = 'jt1';

export interface JobsHarnessOptions {
  env?: Record<string, string>;
  /** Users of the test: their homes are made under the harness's folder. */
  users: string[];
  opts?: Omit<JobsDepsOptions, 'jwks' | 'ownerRights'>;
}

/**
 * A standalone job service for route tests: its own folder with a home per test user (the users themselves are the
 * test's), a key pair, the portal's rights of the moment per user (`h.rights`, changed by tests), and tokens.
 */
export async function jobsHarness(o: JobsHarnessOptions) {
  const keys = await makePortalKeys();
  // Users must be able to walk down to their homes (and slurmd to write their output there): 0711 folders.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-test-'));
  fs.chmodSync(dir, 0o711);
  const homes = new Map<string, string>();
  for (const u of o.users) homes.set(u, path.join(dir, 'home', u));
  const rights = new Map<string, OwnerRights | null>();
  const subOf = (user: string) => String(o.users.indexOf(user) + 100);
  const config = readJobsConfig({
    JOBS_CLUSTER_ID: CLUSTER,
    DATA_DIR: path.join(dir, 'data'),
    JOBS_FS_ROOT: '/',
    LOG_LEVEL: 'silent',
    JOBS_USER_MODE: 'unix',
    JOBS_POLL_INTERVAL_S: '1',
    ...o.env,
  });
  const { app, deps } = await buildJobs(config, {
    jwks: () => keys.jwks,
    ownerRights: async (sub) => {
      const user = o.users.find((u) => subOf(u) === sub);
      return user ? (rights.get(user) ?? null) : null;
    },
    ...o.opts,
  });
  await app.ready();
  return {
    app,
    deps,
    dir,
    homes,
    rights,
    home: (u: string) => homes.get(u)!,
    /** A token of `user` with these claims (the account's status as the token says it). */
    token: (user: string, claims: Partial<{ st: 'Normal' | 'Disable'; acct: string | null }> = {}) =>
      signClusterToken(keys.privateKey, 'k1', {
        sub: subOf(user),
        aud: CLUSTER,
        cun: user,
        home: homes.get(user)!,
        paths: [],
        st: claims.st ?? 'Normal',
        exp_acct: null,
        acct: claims.acct ?? null,
      }),
    async close() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type JobsHarness = Awaited<ReturnType<typeof jobsHarness>>;

/**
 * A valid submission (the demo Slurm's `normal` partition, one task, five minutes) for `account` into `workDir`,
 * with `over` changing any field: the tests of submit differ only in what they change.
 */
export const submitBody = (account: string, workDir: string, over: Record<string, unknown> = {}) => ({
  account,
  partition: 'normal',
  nodes: 1,
  tasks: 1,
  cpusPerTask: 1,
  gpus: 0,
  memoryMb: 0,
  timeLimitMinutes: 5,
  jobName: 'jobt',
  workDir,
  script: '#!/bin/bash\ntrue\n',
  ...over,
});
