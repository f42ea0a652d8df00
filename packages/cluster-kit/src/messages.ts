import type { ServerText } from '@hpc/contracts';

/** The cluster kit's messages for the occasion, in both languages (DECISIONS.md, "Server messages"). */
export const ClusterKitText = {
  // accounts/
  clusterUserMissing: (name: string) => ({
    en: `The cluster user ${name} does not exist on this node`,
    zh: `集群用户 ${name} 在此节点上不存在`,
  }),
  neverRoot: { en: 'Files are never handled as root', zh: '不能以 root 身份处理文件' },
  uidBelowMinimum: (name: string) => ({
    en: `The uid of ${name} is below the minimum for users`,
    zh: `${name} 的 uid 低于普通用户的最小值`,
  }),
  shellRefused: (name: string) => ({
    en: `The login shell of ${name} does not allow file access`,
    zh: `${name} 的登录 shell 不允许访问文件`,
  }),

  // auth/
  portalRightsNoAnswer: (reason: string) => ({
    en: `The portal did not answer the rights check: ${reason}`,
    zh: `门户未响应权限检查：${reason}`,
  }),
  portalRightsUnexpected: {
    en: 'The portal answered the rights check with something unexpected',
    zh: '门户对权限检查的响应异常',
  },
  noPortalRightsCheck: {
    en: 'This efile cannot check owners with the portal: set EFILE_SERVICE_SECRET (and EFILE_PORTAL_URL)',
    zh: '此 efile 无法向门户核对所有者：请设置 EFILE_SERVICE_SECRET（及 EFILE_PORTAL_URL）',
  },
  tokenNoLongerValid: {
    en: 'This token is no longer valid: log in again',
    zh: '此令牌已失效：请重新登录',
  },
  accountExpired: { en: 'The account has expired', zh: '账户已过期' },
  answerTooLarge: (mib: string) => ({
    en: `The answer is larger than ${mib} MiB: ask for less at once`,
    zh: `结果超过 ${mib} MiB：请分批请求`,
  }),

  // paths/
  pathRequired: { en: 'A path is required', zh: '缺少路径' },
  pathNotAbsolute: { en: 'Paths must be absolute cluster paths', zh: '路径必须是集群上的绝对路径' },
  pathSegmentNotAllowed: {
    en: 'Path segments "", "." and ".." are not allowed',
    zh: '路径中不允许出现 ""、"." 和 ".." 段',
  },
  pathSegmentTooLong: { en: 'A path segment is longer than 255 bytes', zh: '路径中有一段超过 255 字节' },
  pathOutsideRoots: {
    en: 'The path is outside your home and granted folders',
    zh: '路径不在您的家目录和授权文件夹内',
  },
  tooManyLinks: { en: 'Too many symbolic links', zh: '符号链接层数过多' },
  pathLeadsOutside: {
    en: 'The path leads outside your allowed folders',
    zh: '路径指向您可访问的文件夹之外',
  },
  parentMissing: { en: 'The parent folder does not exist', zh: '上级文件夹不存在' },
  danglingLink: { en: 'The link leads to nothing', zh: '链接指向的目标不存在' },

  // wire/
  bodyCut: {
    en: 'The request body ended before its end: the upload was cut or too slow; retry',
    zh: '请求体未传完：上传被中断或过慢，请重试',
  },
  workerCallFailed: (what: string) => ({
    en: `The operation failed on the cluster's file system (${what}); retry, or tell the centre if it goes on`,
    zh: `集群文件系统上的操作失败（${what}），请重试；如持续出现请联系中心`,
  }),
  workerGone: {
    en: 'The user worker stopped during the request; retry',
    zh: '用户工作进程在请求期间停止，请重试',
  },
  requestTooLarge: { en: 'Request too large', zh: '请求过大' },
  workerForAnotherUser: { en: 'This worker acts for another user', zh: '此工作进程代表其他用户' },
  noConnectionCall: {
    en: 'No call of this worker takes a connection',
    zh: '此工作进程没有接收连接的调用',
  },
  handleGone: {
    en: 'The handle is gone (the worker restarted or it expired)',
    zh: '句柄已失效（工作进程已重启或句柄已过期）',
  },

  // worker/
  workersBusy: {
    en: 'Every user worker is busy: retry in a moment',
    zh: '所有用户工作进程都在忙：请稍后重试',
  },
  noClusterUser: { en: 'No cluster user to run this as', zh: '没有可用于执行此操作的集群用户' },
  workerStartTimeout: {
    en: 'The user worker did not start in time; retry',
    zh: '用户工作进程未能及时启动，请重试',
  },
  workerStartFailed: (user: string, code: string) => ({
    en: `The worker of ${user} failed to start (${code})`,
    zh: `${user} 的工作进程启动失败（${code}）`,
  }),
  noHandedConnection: {
    en: 'No connection came with the hand-off',
    zh: '移交时未附带连接',
  },
  workerNotRunning: (user: string) => ({
    en: `The worker of ${user} is not running`,
    zh: `${user} 的工作进程未在运行`,
  }),
  workerRefusedConnection: (user: string) => ({
    en: `The worker of ${user} did not take the connection`,
    zh: `${user} 的工作进程未接收该连接`,
  }),
  workerTakesNoConnections: { en: 'This worker takes no connections', zh: '此工作进程不接收连接' },
} satisfies Record<string, ServerText | ((...values: never[]) => ServerText)>;
