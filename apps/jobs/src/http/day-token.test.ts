import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FASTRANS_TOKEN_USE, JobRoutes, type ClusterTokenClaims, type OwnerRights } from '@hpc/contracts';
import { makePortalKeys, signTestToken } from '@hpc/server-kit/testing';
import { buildJobs } from '../app';
import { readJobsConfig } from '../config';

/**
 * The fast-transfer client's day token (`use: "fastrans"`, no session, up to 24 h) reaches the home through efile
 * only (docs/FASTRANS.md): the job service refuses it as a token it cannot use ("1406"), a session token of the
 * same user still answering.
 */
describe('the job service and the day token', () => {
  const CLUSTER = 'jdt1';
  const rights: OwnerRights = {
    cun: 'demo',
    home: '/public/home/demo',
    paths: [],
    st: 'Normal',
    exp_acct: null,
  };
  let dir: string;
  let keys: Awaited<ReturnType<typeof makePortalKeys>>;
  let app: Awaited<ReturnType<typeof buildJobs>>['app'];

  beforeAll(async () => {
    keys = await makePortalKeys();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-day-token-'));
    const config = readJobsConfig({
      JOBS_CLUSTER_ID: CLUSTER,
      DATA_DIR: path.join(dir, 'data'),
      JOBS_FS_ROOT: '/',
      LOG_LEVEL: 'silent',
    });
    ({ app } = await buildJobs(config, {
      jwks: () => keys.jwks,
      // The portal knows the user: the day token's rights of the moment would be granted.
      ownerRights: async (sub) => (sub === 'u-demo' ? rights : null),
      noPolling: true,
      run: async () => ({ code: 0, stdout: '', stderr: '' }),
    }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const token = (claims: Partial<ClusterTokenClaims>, ttlS?: number) =>
    signTestToken(keys.privateKey, { aud: CLUSTER, home: rights.home, ...claims }, ttlS);
  const list = async (tok: string) =>
    (await app.inject({ method: 'GET', url: JobRoutes.list.path, headers: { token: tok } })).json<{
      code: string;
    }>().code;

  it('refuses a day token with "1406"; a session token of the same user is taken', async () => {
    const session = await token({ sid: 's-demo' });
    expect(await list(session)).toBe('0');
    const day = await token({ use: FASTRANS_TOKEN_USE }, 24 * 3600);
    expect(await list(day)).toBe('1406');
    expect(await list(await token({ use: FASTRANS_TOKEN_USE }, 3600))).toBe('1406');
  });
});
