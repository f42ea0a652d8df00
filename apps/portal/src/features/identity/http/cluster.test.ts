import { beforeAll, describe, expect, it } from 'vitest';
import { testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import type {
  ApplicableCluster,
  Cluster,
  ClusterTokenClaims,
  ClusterUserBaseInfo,
  CurrentUser,
} from '@hpc/contracts';
import { Browser, dataOf, loggedIn, usePortal } from '../identity.test-fixture';
import { sortClusters } from '../data/cluster.model';

const ids = (list: { clusterId: string }[]) => list.map((c) => c.clusterId);

describe('cluster ordering', () => {
  it('puts a cluster whose name contains 停用 last, the others in numeric id order', () => {
    const list = [
      { clusterId: '100', centerName: '乙中心（停用）' },
      { clusterId: '9', centerName: '甲中心' },
      { clusterId: '20', centerName: '丙中心' },
    ];
    expect(ids(sortClusters(list))).toEqual(['9', '20', '100']);
  });
});

describe.each(testDbTargets())('cluster and service calls on $name', (target: TestDbTarget) => {
  let admin: Browser;
  let demo: Browser;
  let wangwu: Browser;
  let lisi: Browser;
  let anon: Browser;
  const portal = usePortal(target);

  beforeAll(async () => {
    [admin, demo, wangwu, lisi] = await Promise.all([
      loggedIn(portal.app, 'admin'),
      loggedIn(portal.app, 'demo'),
      loggedIn(portal.app, 'wangwu'),
      loggedIn(portal.app, 'lisi'),
    ]);
    anon = new Browser(portal.app);
  });

  it('answers 401 to an anonymous caller on every call', async () => {
    for (const url of [
      '/api/center/queryCurClusterList.action',
      '/api/computeuser/queryClusterUsersDetail.action',
      '/api/computeuser/queryClusterUserBaseInfo.action',
      '/api/resource/queryCanApplyClusterInfos.action',
      '/model-zoo/proxy/efile/info',
    ]) {
      const res = await anon.get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe('401');
    }
    const post = await anon.post('/api/resource/storage/queryMultiClusterAccessPath.action');
    expect(post.statusCode).toBe(401);
  });

  it('gives a manager every current cluster with its params, 停用 last; others get 403', async () => {
    const res = await admin.get('/api/center/queryCurClusterList.action');
    expect(res.statusCode).toBe(200);
    const list = dataOf<Cluster[]>(res);
    expect(ids(list)).toEqual(['11250', '11251', '11252']);
    expect(list[2]).toMatchObject({ centerName: '无锡中心（停用）', disabled: true });
    expect(list[0]!.params.default_user_home_path).toBe('/public/home');
    expect(JSON.parse(list[0]!.params.efileUrl!)).toEqual([{ url: '/efile/11250', enable: 'true' }]);
    const filtered = await admin.get('/api/center/queryCurClusterList.action?centerName=kunshan');
    expect(ids(dataOf<Cluster[]>(filtered))).toEqual(['11251']);

    const refused = await demo.get('/api/center/queryCurClusterList.action');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('403');
  });

  it("lists the user's compute users with membership, and adds the account details in base info", async () => {
    const detail = (await demo.get('/api/computeuser/queryClusterUsersDetail.action')).json().data;
    expect(detail).toHaveLength(2);
    expect(detail[0]).toMatchObject({
      clusterId: '11250',
      centerName: '合肥先进计算中心',
      clusterUserName: 'demo',
      homePath: '/public/home/demo',
      accountId: 'acct-demo-hf',
      memberType: 'admin',
      adminFullName: '演示用户',
      groupId: 'demo-group',
    });
    expect(detail[1]).toMatchObject({ clusterId: '11251', memberType: 'member', adminFullName: '李四' });

    const base = dataOf<ClusterUserBaseInfo[]>(
      await wangwu.get('/api/computeuser/queryClusterUserBaseInfo.action'),
    );
    expect(base.map((c) => c.accountDetail?.status)).toEqual(['Disable', 'Normal']);
    expect(base[1]!.accountDetail).toMatchObject({ accountId: 'acct-wangwu-ks', balance: 35 });

    // A manager without compute users has none; lisi's disabled centre sorts last although added first.
    expect((await admin.get('/api/computeuser/queryClusterUsersDetail.action')).json().data).toEqual([]);
    expect(ids(dataOf<Cluster[]>(await lisi.get('/api/computeuser/queryClusterUsersDetail.action')))).toEqual(
      ['11250', '11251', '11252'],
    );
  });

  it('lists the clusters one can apply for, flagging those already applied, filtered by site host', async () => {
    const list = dataOf<ApplicableCluster[]>(
      await demo.get('/api/resource/queryCanApplyClusterInfos.action'),
    );
    expect(list.map((c) => [c.clusterId, c.applied])).toEqual([
      ['11250', true],
      ['11251', true],
      ['11252', false],
    ]);
    expect((await admin.get('/api/resource/queryCanApplyClusterInfos.action')).statusCode).toBe(200);
    // A cluster that names its site hosts is offered only there.
    await portal.deps.db
      .insertInto('cluster_param')
      .values({ cluster_id: '11251', name: 'site_hosts', value: 'ks.example.cn' })
      .execute();
    const elsewhere = dataOf<ApplicableCluster[]>(
      await demo.get('/api/resource/queryCanApplyClusterInfos.action?fromHost=hf.example.cn'),
    );
    expect(ids(elsewhere)).toEqual(['11250', '11252']);
    const there = dataOf<ApplicableCluster[]>(
      await demo.get('/api/resource/queryCanApplyClusterInfos.action?fromHost=ks.example.cn'),
    );
    expect(ids(there)).toEqual(['11250', '11251', '11252']);
  });

  it('maps each of the user clusters to its shared paths, from a form, JSON or no body', async () => {
    const url = '/api/resource/storage/queryMultiClusterAccessPath.action';
    const all = await demo.post(url);
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toEqual({ '11250': ['/public/share/demo-group'], '11251': [] });
    expect((await demo.post(url, { form: 'clusterIds=11251' })).json().data).toEqual({ '11251': [] });
    expect((await demo.post(url, { json: { clusterIds: ['11250'] } })).json().data).toEqual({
      '11250': ['/public/share/demo-group'],
    });
    expect((await admin.post(url)).json().data).toEqual({});
  });

  it('answers the E-File info of a cluster, and refuses a disabled account with 612007 and the notice', async () => {
    const first = (await demo.get('/model-zoo/proxy/efile/info')).json();
    expect(first).toMatchObject({
      code: '0',
      data: { clusterId: '11250', efileUrl: '/efile/11250', homePath: '/public/home/demo', username: 'demo' },
    });
    const ks = (await demo.get('/model-zoo/proxy/efile/info?clusterId=11251')).json().data;
    expect(ks.efileUrl).toBe('/efile/11251');

    const disabled = await wangwu.get('/model-zoo/proxy/efile/info?clusterId=11250');
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toMatchObject({
      code: '612007',
      data: { clusterId: '11250', centerName: '合肥先进计算中心' },
    });
    expect(disabled.json().msg).toBe(
      'The account 王五课题组（合肥） is deactivated: this feature is unavailable in Hefei Advanced Computing Center until the sales manager reactivates it',
    );
    // Each language names the centre by its own name: the Chinese said 「Hefei Advanced Computing Center」.
    const zh = { headers: { 'accept-language': 'zh-CN' } };
    const disabledZh = await wangwu.get('/model-zoo/proxy/efile/info?clusterId=11250', zh);
    expect(disabledZh.json()).toMatchObject({
      code: '612007',
      msg: '账户「王五课题组（合肥）」已停用：该功能在计算中心「合肥先进计算中心」暂不可用，需由销售经理重新启用',
    });

    expect((await demo.get('/model-zoo/proxy/efile/info?clusterId=11252')).json().code).toBe('601009');
    const noService = await lisi.get('/model-zoo/proxy/efile/info?clusterId=11252');
    expect(noService.json()).toMatchObject({
      code: '1001',
      msg: 'No file service is enabled on Wuxi Center (disabled)',
      data: { kind: 'NoEnableService' },
    });
    expect((await lisi.get('/model-zoo/proxy/efile/info?clusterId=11252', zh)).json()).toMatchObject({
      code: '1001',
      msg: '计算中心「无锡中心（停用）」没有启用的文件服务',
    });
    expect((await admin.get('/model-zoo/proxy/efile/info')).json().code).toBe('601009');
  });

  it('answers anyone the enabled efile URLs of a cluster, and nothing else about it', async () => {
    const url = (id: string) => `/api/center/publicEfileUrls.action?clusterId=${encodeURIComponent(id)}`;
    const hf = await anon.get(url('11250'));
    expect(hf.statusCode).toBe(200);
    expect(hf.json()).toEqual({ code: '0', msg: expect.any(String), data: { urls: ['/efile/11250'] } });
    // Configured but none enabled, unknown and missing clusters all look the same: an empty list.
    expect(dataOf<{ urls: string[] }>(await anon.get(url('11252')))).toEqual({ urls: [] });
    expect(dataOf<{ urls: string[] }>(await anon.get(url('no-such')))).toEqual({ urls: [] });
    expect((await anon.get(url('../x'))).statusCode).toBe(400);
    expect((await anon.get('/api/center/publicEfileUrls.action')).statusCode).toBe(400);

    await portal.deps.db
      .updateTable('cluster_param')
      .set({
        value: JSON.stringify([
          { url: 'https://ks-a.example.cn/efile', enable: 'true' },
          { url: 'https://ks-b.example.cn/efile', enable: 'false' },
          { url: 'https://ks-c.example.cn/efile', enable: 'true' },
        ]),
      })
      .where('cluster_id', '=', '11251')
      .where('name', '=', 'efileUrl')
      .execute();
    const ks = await demo.get(url('11251'));
    expect(dataOf<{ urls: string[] }>(ks)).toEqual({
      urls: ['https://ks-a.example.cn/efile', 'https://ks-c.example.cn/efile'],
    });
  });

  it("puts the account status into the cluster token: 'Disable' where the account is disabled", async () => {
    const { tokenList } = dataOf<CurrentUser>(await wangwu.get('/api/user/info'));
    const claims = tokenList.map(
      (t) => JSON.parse(Buffer.from(t.token.split('.')[1]!, 'base64url').toString()) as ClusterTokenClaims,
    );
    expect(claims.map((c) => [c.aud, c.st])).toEqual([
      ['11250', 'Disable'],
      ['11251', 'Normal'],
    ]);
    expect(claims[1]!.exp_acct).toBeTypeOf('number');
    expect(claims[0]!.exp_acct).toBeNull();
  });
});
