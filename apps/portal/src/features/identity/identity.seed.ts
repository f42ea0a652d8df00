import type { ServiceEntry, ServiceListParam } from '@hpc/contracts';
import type { PortalDeps } from '../../deps';
import { identityServicesOf } from './identity.services';

const DAY = 24 * 3600 * 1000;
const on = (url: string): ServiceEntry => ({ url, enable: 'true' });
const off = (url: string): ServiceEntry => ({ url, enable: 'false' });

/** The agreed demo clusters (the efile and web engineers rely on these ids, names and the efile mounts). */
const CLUSTERS: {
  clusterId: string;
  centerName: string;
  centerNameEn: string;
  services: Record<ServiceListParam, ServiceEntry[]>;
}[] = [
  {
    clusterId: '11250',
    centerName: '合肥先进计算中心',
    centerNameEn: 'Hefei Advanced Computing Center',
    services: {
      // Relative URL = the efile instance the all-in-one start mounts; operators put absolute URLs.
      efileUrl: [on('/efile/11250')],
      // No job service by default (`npm start` has no scheduler: the Job page says so). `npm run start:cluster`
      // mounts the real one at /jobs/11250 and the all-in-one publishes it here at start (issue 22 §1).
      gridview_service: [],
      // No shell service either: `npm start` has no sshd, and the E-Shell page says the shell is unavailable on
      // this centre; `npm run start:cluster` mounts the real one at /eshell/11250 and publishes it here (issue 26).
      sothisai_service: [],
      sshAddressList: [on('login01.hf.example.cn:22'), off('login02.hf.example.cn:22')],
    },
  },
  {
    clusterId: '11251',
    centerName: '昆山超算中心',
    centerNameEn: 'Kunshan Supercomputing Center',
    services: {
      efileUrl: [on('/efile/11251')],
      gridview_service: [],
      sothisai_service: [off('https://ks-ai.example.cn/sothisai')],
      sshAddressList: [on('login01.ks.example.cn:22'), on('login02.ks.example.cn:22')],
    },
  },
  {
    clusterId: '11252',
    centerName: '无锡中心（停用）',
    centerNameEn: 'Wuxi Center (disabled)',
    services: {
      efileUrl: [off('https://wx-efile.example.cn/efile')],
      gridview_service: [off('https://wx-gridview.example.cn:8443/gridview')],
      sothisai_service: [],
      sshAddressList: [off('login01.wx.example.cn:22')],
    },
  },
];

/**
 * Demo users, clusters, accounts and grants for the all-in-one start, made through the same services as the admin
 * CLI. Runs only when there is no user at all, so an operator's data is never touched.
 */
export async function seedIdentity(deps: PortalDeps): Promise<void> {
  const s = identityServicesOf(deps);
  if ((await s.users.count()) > 0) return;
  const password = deps.config.PORTAL_DEMO_PASSWORD;
  const now = deps.now();

  for (const c of CLUSTERS) {
    await s.clusters.add({ clusterId: c.clusterId, centerName: c.centerName, centerNameEn: c.centerNameEn });
    for (const [name, entries] of Object.entries(c.services) as [ServiceListParam, ServiceEntry[]][]) {
      if (entries.length > 0) await s.clusters.setServiceList(c.clusterId, name, entries);
    }
  }

  await s.users.add({ username: 'admin', password, fullName: '系统管理员', role: 'manager' });
  await s.users.add({ username: 'demo', password, fullName: '演示用户', email: 'demo@example.cn' });
  await s.users.add({ username: 'wangwu', password, fullName: '王五', email: 'wangwu@example.cn' });
  await s.users.add({ username: 'lisi', password, fullName: '李四', email: 'lisi@example.cn' });

  await s.accounts.addGroup('demo-group', '演示用户组');
  const accounts = [
    { accountId: 'acct-demo-hf', name: '演示课题组（合肥）', balance: 5000, endUseTime: now + 365 * DAY },
    // Low balance and an end within 7 days: the alert bar has something to show for demo.
    { accountId: 'acct-demo-ks', name: '演示课题组（昆山）', balance: 88.5, endUseTime: now + 5 * DAY },
    { accountId: 'acct-wangwu-hf', name: '王五课题组（合肥）', balance: 1200, status: 'Disable' as const },
    { accountId: 'acct-wangwu-ks', name: '王五课题组（昆山）', balance: 35, endUseTime: now + 180 * DAY },
    { accountId: 'acct-lisi', name: '李四课题组', balance: 20000 },
  ];
  for (const a of accounts) await s.accounts.add(a);

  const members = [
    { accountId: 'acct-demo-hf', username: 'demo', memberType: 'admin' as const, groupId: 'demo-group' },
    { accountId: 'acct-demo-ks', username: 'lisi', memberType: 'admin' as const },
    { accountId: 'acct-demo-ks', username: 'demo', memberType: 'member' as const },
    { accountId: 'acct-wangwu-hf', username: 'wangwu', memberType: 'admin' as const },
    { accountId: 'acct-wangwu-ks', username: 'wangwu', memberType: 'admin' as const },
    { accountId: 'acct-lisi', username: 'lisi', memberType: 'admin' as const },
  ];
  for (const m of members) await s.accounts.setMember(m);

  const computeUsers = [
    { username: 'demo', clusterId: '11250', accountId: 'acct-demo-hf' },
    { username: 'demo', clusterId: '11251', accountId: 'acct-demo-ks' },
    { username: 'wangwu', clusterId: '11250', accountId: 'acct-wangwu-hf' },
    { username: 'wangwu', clusterId: '11251', accountId: 'acct-wangwu-ks' },
    // lisi's one account spans three centres, one of them disabled: grouping and the 停用 ordering show. On 11250
    // lisi is demo's neighbour on the real scheduler of `start:cluster` (issue 22 §5: never sees demo's jobs).
    { username: 'lisi', clusterId: '11252', accountId: 'acct-lisi' },
    { username: 'lisi', clusterId: '11251', accountId: 'acct-lisi' },
    { username: 'lisi', clusterId: '11250', accountId: 'acct-lisi' },
  ];
  for (const c of computeUsers) await s.computeUsers.setComputeUser(c);

  await s.computeUsers.grantPath({
    clusterId: '11250',
    path: '/public/share/demo-group',
    groupId: 'demo-group',
  });

  if (deps.config.LOG_LEVEL !== 'silent') {
    console.log(
      `  Demo logins (password ${password}): admin (manager), demo, wangwu (account disabled on 11250), lisi`,
    );
  }
}
