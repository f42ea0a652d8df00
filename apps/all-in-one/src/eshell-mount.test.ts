import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIME_HEADER, type Cluster } from '@hpc/contracts';
import { encodeRequestTime } from '@hpc/api-client';
import { makeTempDir } from '@hpc/server-kit/testing';
import { loginCall, startDemo, type App } from './all-in-one.test-fixture';

/**
 * Issue 26 §1: the all-in-one mounts the shell service of the cluster whose sshd `npm run start:cluster` started
 * (ESHELL_CA_KEY, ESHELL_LOGIN_NODES) and publishes it as the cluster's sothisai_service with its login node first;
 * a start without it takes both away again, so the page shows the shell as unavailable there.
 */
describe('the all-in-one mounts and publishes the shell service', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeAll(() => {
    tmp = makeTempDir('eshell-mount-');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(tmp.dir, 'ca')]);
  });
  afterAll(() => tmp?.cleanup());

  /** The cluster as the admin's cluster list shows it (a manager's call). */
  const clusterOf = async (app: App, id: string) => {
    const login = await loginCall(app, 'admin');
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await app.inject({
      method: 'GET',
      url: '/api/center/queryCurClusterList.action',
      headers: { cookie, [REQUEST_TIME_HEADER]: await encodeRequestTime() },
    });
    return res.json<{ data: Cluster[] }>().data.find((c) => c.clusterId === id)!;
  };

  it('mounted with an sshd, gone without', async () => {
    const node = {
      address: '127.0.0.1:2222',
      hostKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAJRxdWQaiLMfByCx8i42nYqLqMv8q6Z5SC92EFSrJ2j',
    };
    const app = await startDemo(tmp.dir, {
      ESHELL_CA_KEY: path.join(tmp.dir, 'ca'),
      ESHELL_LOGIN_NODES: JSON.stringify([node]),
      ESHELL_CLUSTER_ID: '11250',
    });
    const check = await app.inject({ method: 'GET', url: '/eshell/11250/sothisai/api/eshell/action/check' });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ code: '0', data: { check_result: true, nodes: [node.address] } });
    const on = await clusterOf(app, '11250');
    expect(JSON.parse(on.params.sothisai_service!)[0]).toEqual({ url: '/eshell/11250', enable: 'true' });
    expect(JSON.parse(on.params.sshAddressList!)[0]).toEqual({ url: node.address, enable: 'true' });
    await app.close();

    const again = await startDemo(tmp.dir);
    const off = await clusterOf(again, '11250');
    expect(off.params.sothisai_service).not.toContain('/eshell/');
    expect(off.params.sshAddressList).not.toContain('127.0.0.1:2222');
    expect(
      (await again.inject({ method: 'GET', url: '/eshell/11250/sothisai/api/eshell/action/check' }))
        .statusCode,
    ).not.toBe(200);
    await again.close();
  }, 60_000);
});
