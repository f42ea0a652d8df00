import type { ServerText } from '@hpc/contracts';

/** The portal's messages for the occasion, in both languages (DECISIONS.md, "Server messages"). */
export const PortalText = {
  // The portal's client of the clusters' efile (efile-client.ts).
  fileServiceHttp: (status: number) => ({
    en: `The file service answered HTTP ${status}`,
    zh: `文件服务返回了 HTTP ${status}`,
  }),
  fileServiceUnreachable: (reason: string) => ({
    en: `The file service cannot be reached: ${reason}`,
    zh: `无法连接文件服务：${reason}`,
  }),

  // Catalogue: image centre, model zoo, application centre and their files.
  bodyNotArray: (key: string) => ({
    en: `Invalid input: body/${key} must be an array`,
    zh: `输入无效：body/${key} 应为数组`,
  }),
  pathHasNul: { en: 'The path contains a NUL byte', zh: '路径包含 NUL 字节' },
  pathHasDotDot: { en: 'The path must not contain ".."', zh: '路径不能包含“..”' },
  pathOutsideCatalogStorage: {
    en: 'The path is outside the catalogue storage',
    zh: '路径超出了资源目录的存储范围',
  },
  noImageFor: (imageName: string, acceleratorType: string) => ({
    en: `No image ${imageName} for ${acceleratorType}`,
    zh: `没有适用于 ${acceleratorType} 的镜像 ${imageName}`,
  }),
  noImageWithId: (id: number) => ({ en: `No image with id ${id}`, zh: `没有编号为 ${id} 的镜像` }),
  noModelWithId: (id: number) => ({ en: `No model with id ${id}`, zh: `没有编号为 ${id} 的模型` }),
  noAppWithId: (id: number) => ({ en: `No application with id ${id}`, zh: `没有编号为 ${id} 的应用` }),
  imageIdOrCreateTimeRequired: {
    en: 'Parameter exception: id or createTime is required',
    zh: '参数异常：需要 id 或 createTime',
  },
  noSuchImage: { en: 'No such image', zh: '镜像不存在' },
  fileChangedSinceIndexed: (path: string) => ({
    en: `${path} changed since it was indexed`,
    zh: `${path} 在建立索引后已被修改`,
  }),

  // "Copy to my E-File" of the model zoo.
  archiveClosed: { en: 'The archive was closed', zh: '归档流已关闭' },
  folderNameBlank: { en: 'The folder name must not be blank', zh: '文件夹名称不能为空' },
  folderNameTooLong: (max: number) => ({
    en: `The folder name must be at most ${max} characters`,
    zh: `文件夹名称不能超过 ${max} 个字符`,
  }),
  folderNotAbsolute: { en: 'The folder must be an absolute path', zh: '文件夹必须是绝对路径' },
  pathHasDots: { en: 'The path must not contain . or ..', zh: '路径不能包含 . 或 ..' },
  modelHasNoFiles: { en: 'This model has no files to copy', zh: '该模型没有可复制的文件' },
  noSuchCopy: { en: 'No such copy', zh: '复制任务不存在' },
  centreFileServiceDown: {
    en: 'No file service of this centre answers',
    zh: '该计算中心的文件服务均无响应',
  },
  copyCancelled: { en: 'The copy was cancelled', zh: '复制已取消' },
  sha256Mismatch: (path: string) => ({
    en: `${path} does not match its sha256`,
    zh: `${path} 与其 sha256 不符`,
  }),
  notCopied: (files: string) => ({ en: `Not copied: ${files}`, zh: `未复制：${files}` }),

  // Clusters and their services.
  noCluster: (clusterId: string) => ({ en: `No cluster ${clusterId}`, zh: `集群 ${clusterId} 不存在` }),
  clusterIdInvalid: {
    en: 'A cluster id has 1-32 letters, digits, _ or -',
    zh: '集群 ID 由 1-32 个字母、数字、_ 或 - 组成',
  },
  centreNameRequired: { en: 'The centre name is required', zh: '计算中心名称不能为空' },
  clusterExists: (clusterId: string) => ({
    en: `The cluster ${clusterId} exists`,
    zh: `集群 ${clusterId} 已存在`,
  }),
  paramNameInvalid: { en: 'A param name has 1-100 characters', zh: '参数名长度为 1-100 个字符' },
  serviceListNotJson: {
    en: 'A service list is JSON: [{"url":"…","enable":"true"}]',
    zh: '服务列表须为 JSON：[{"url":"…","enable":"true"}]',
  },
  serviceEntryInvalid: {
    en: 'Each service entry is {"url": "…", "enable": "true" | "false"}',
    zh: '每个服务条目须为 {"url": "…", "enable": "true" | "false"}',
  },
  accountDeactivated: (account: string, centre: string) => ({
    en: `The account ${account} is deactivated: this feature is unavailable in ${centre} until the sales manager reactivates it`,
    zh: `账户「${account}」已停用：该功能在计算中心「${centre}」暂不可用，需由销售经理重新启用`,
  }),
  noFileServiceEnabled: (centre: string) => ({
    en: `No file service is enabled on ${centre}`,
    zh: `计算中心「${centre}」没有启用的文件服务`,
  }),
  clusterFileServiceDown: {
    en: 'No file service of the cluster answers',
    zh: '该集群的文件服务均无响应',
  },

  // Users, accounts, user groups, compute users and path grants.
  noUserNamed: (username: string) => ({ en: `No user named ${username}`, zh: `用户 ${username} 不存在` }),
  usernameInvalid: {
    en: 'A user name starts with a letter and has letters, digits, _, - or . (at most 64)',
    zh: '用户名以字母开头，由字母、数字、_、- 或 . 组成（最多 64 个字符）',
  },
  usernameExists: (username: string) => ({
    en: `The user name ${username} exists`,
    zh: `用户名 ${username} 已存在`,
  }),
  passwordTooShort: (min: number) => ({
    en: `The password must have at least ${min} characters`,
    zh: `密码至少 ${min} 位`,
  }),
  managerOnly: { en: 'Only a manager may do this', zh: '仅管理员可执行此操作' },
  noAccount: (accountId: string) => ({ en: `No account ${accountId}`, zh: `账户 ${accountId} 不存在` }),
  accountIdInvalid: {
    en: 'An account id has 1-64 letters, digits, _, - or .',
    zh: '账户 ID 由 1-64 个字母、数字、_、- 或 . 组成',
  },
  accountNameRequired: { en: 'The account name is required', zh: '账户名称不能为空' },
  accountExists: (accountId: string) => ({
    en: `The account ${accountId} exists`,
    zh: `账户 ${accountId} 已存在`,
  }),
  balanceInvalid: { en: 'The balance is not a valid amount', zh: '余额不是有效的金额' },
  accountExpired: { en: 'The account has expired', zh: '账户已到期' },
  groupIdInvalid: {
    en: 'A group id has 1-64 letters, digits, _, - or .',
    zh: '用户组 ID 由 1-64 个字母、数字、_、- 或 . 组成',
  },
  userGroupExists: (groupId: string) => ({
    en: `The user group ${groupId} exists`,
    zh: `用户组 ${groupId} 已存在`,
  }),
  noUserGroup: (groupId: string) => ({ en: `No user group ${groupId}`, zh: `用户组 ${groupId} 不存在` }),
  notMember: (username: string, accountId: string) => ({
    en: `${username} is not a member of ${accountId}`,
    zh: `${username} 不是账户 ${accountId} 的成员`,
  }),
  notMemberAddFirst: (username: string, accountId: string) => ({
    en: `${username} is not a member of ${accountId}: add the membership first`,
    zh: `${username} 不是账户 ${accountId} 的成员：请先添加成员`,
  }),
  computeUserNameInvalid: {
    en: 'A compute user name has lower-case letters, digits, _ or -, and starts with a letter',
    zh: '计算用户名由小写字母、数字、_ 或 - 组成，且以字母开头',
  },
  homeInvalid: {
    en: 'The home directory must start with /, end with the compute user name, and have no spaces',
    zh: '家目录必须以 / 开头、以计算用户名结尾，且不含空格',
  },
  computeUserTaken: (clusterUserName: string, clusterId: string) => ({
    en: `The compute user ${clusterUserName} on ${clusterId} belongs to another user`,
    zh: `集群 ${clusterId} 上的计算用户 ${clusterUserName} 属于其他用户`,
  }),
  noComputeUser: (username: string, clusterId: string) => ({
    en: `${username} has no compute user on ${clusterId}`,
    zh: `${username} 在集群 ${clusterId} 上没有计算用户`,
  }),
  noSuchPathGrant: { en: 'No such path grant', zh: '该路径授权不存在' },
  storagePathInvalid: {
    en: 'A storage path is absolute and normalised, without spaces',
    zh: '存储路径须为规范的绝对路径，且不含空格',
  },
  grantOneOf: {
    en: 'Grant a path to exactly one of a user or a group',
    zh: '路径只能授权给一个用户或一个用户组，且须二选一',
  },
  preferencesEmpty: {
    en: 'Send language, theme or dashboardEntries',
    zh: '请提供 language、theme 或 dashboardEntries',
  },

  // Single sign-on.
  ssoProviderUnreachable: (reason: string) => ({
    en: `Cannot reach the single sign-on provider: ${reason}`,
    zh: `无法连接单点登录服务：${reason}`,
  }),
  ssoNotConfigured: { en: 'Single sign-on is not configured', zh: '未配置单点登录' },
  ssoStateMismatch: { en: 'The single sign-on state does not match', zh: '单点登录的 state 不匹配' },
  ssoExpired: {
    en: 'The single sign-on attempt expired, please try again',
    zh: '单点登录已超时，请重试',
  },
  ssoFailed: (reason: string) => ({ en: `Single sign-on failed: ${reason}`, zh: `单点登录失败：${reason}` }),
  userDisabled: { en: 'This user is disabled', zh: '该用户已停用' },

  // Fast transfer.
  fastransOutsideHome: { en: 'Use fast transfer within your home directory', zh: '请在家目录内使用快传' },
  directoryNotUrlEncoded: { en: 'The directory is not URL-encoded', zh: '目录未经 URL 编码' },
  clientPackageNotBuilt: {
    en: 'The fast-transfer client package is not built (npm run build)',
    zh: '快传客户端安装包尚未构建（npm run build）',
  },
  // The fast-transfer web server (the client's calls) and the relay (the page's actions for the client).
  webLoginRevoked: { en: 'This login has been revoked: log in again', zh: '此登录已被撤销，请重新登录' },
  webTokenGone: { en: 'This token is no longer valid: log in again', zh: '此令牌已失效，请重新登录' },
  webUserDisabled: { en: 'The user or account is disabled', zh: '用户或账户已停用' },
  webAccountExpired: { en: 'The account has expired', zh: '账户已过期' },
  clientTooOld: { en: 'The client is too old, please update it', zh: '客户端版本过旧，请更新' },
  webLogInFirst: { en: 'Log in first', zh: '请先登录' },
  webTokenInvalid: { en: 'Invalid login token', zh: '登录令牌无效' },
  webTokenExpired: { en: 'Invalid or expired login token', zh: '登录令牌无效或已过期' },
  webTooManyLogins: (max: number) => ({
    en: `Too many fast-transfer client logins: at most ${max} in 24 hours; please try again later`,
    zh: `快传客户端登录次数过多：24 小时内最多 ${max} 次，请稍后再试`,
  }),
  notFastransToken: { en: 'Not a fast-transfer token', zh: '不是快传令牌' },
  webNotLoggedIn: {
    en: 'Not logged in to the fast-transfer web server',
    zh: '未登录快传 Web 服务',
  },
  webUnknownCall: (call: string) => ({ en: `Unknown call ${call}`, zh: `未知调用 ${call}` }),
  clientNotRunning: { en: 'The fast-transfer client is not running', zh: '快传客户端未运行' },
  chooseClient: {
    en: 'Several fast-transfer clients are running: choose one',
    zh: '有多个快传客户端正在运行，请选择一个',
  },
  clientSilent: { en: 'The fast-transfer client did not answer', zh: '快传客户端没有响应' },
} satisfies Record<string, ServerText | ((...values: never[]) => ServerText)>;
