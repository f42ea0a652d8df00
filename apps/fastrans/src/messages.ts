import type { ServerText } from '@hpc/contracts';

/**
 * The client's own refusals, in both languages of the page (contracts' `ServerText`, as the servers' catalogues):
 * an answer of the local protocol carries the English `msg` and the Chinese `zh`, and the page shows the one of its
 * language. Values only fill both texts; a refusal relayed from the portal or efile keeps the words it came with.
 */
export const FastransText = {
  webServerHttp: (status: string) => ({
    en: `The fast-transfer web server answered HTTP ${status}`,
    zh: `快传 Web 服务返回了 HTTP ${status}`,
  }),
  portalSilent: (why: string) => ({ en: `The portal does not answer: ${why}`, zh: `门户无响应：${why}` }),
  notDayToken: { en: 'The login token is not a day token', zh: '登录令牌不是当日令牌' },
  otherOwner: {
    en: 'This fast-transfer client belongs to another portal user: run `fastrans unpair` on it to free it',
    zh: '此快传客户端属于另一位门户用户：在其上运行 `fastrans unpair` 可解除绑定',
  },
  noFileService: { en: 'No file service is enabled on the cluster', zh: '该集群未启用文件服务' },
  fieldRequired: (field: string) => ({ en: `${field} is required`, zh: `缺少 ${field}` }),
  fieldInvalid: (field: string) => ({ en: `${field} is not valid`, zh: `${field} 无效` }),
  homeItself: {
    en: 'Choose a folder inside your home folder to download into, not the home itself',
    zh: '请选择家目录内的文件夹作为下载位置，不能是家目录本身',
  },
  hiddenFolder: { en: 'Downloads do not go into hidden folders', zh: '不能下载到隐藏文件夹' },
  logInFirst: { en: 'Log in first', zh: '请先登录' },
  noSuchPath: (p: string) => ({ en: `${p} does not exist`, zh: `${p} 不存在` }),
  notAFolder: (p: string) => ({ en: `${p} is not a folder`, zh: `${p} 不是文件夹` }),
  notAFile: (p: string) => ({ en: `${p} is not a file`, zh: `${p} 不是文件` }),
  noSuchTask: { en: 'No such task', zh: '任务不存在' },
  unknownAction: (action: string) => ({ en: `Unknown action ${action}`, zh: `未知操作 ${action}` }),
  notJson: { en: 'Send JSON requests', zh: '请发送 JSON 请求' },
  oneFolder: { en: 'Choose items of one folder', zh: '请选择同一文件夹中的项目' },
  partialNotOwn: (p: string) => ({
    en: `${p} is not this client's partial file (a link, another account's file, or a file of several names): nothing was written to it`,
    zh: `${p} 不是本客户端的临时文件（链接、其他账户的文件或有多个名称的文件）：未向其写入任何内容`,
  }),
} satisfies Record<string, ServerText | ((...values: string[]) => ServerText)>;
