import { ErrorCodes, type ErrorCode } from './errors';

/**
 * The Chinese texts of the error registry, for servers answering a request whose Accept-Language prefers Chinese
 * (issue 13 §1.3: spec §8 shows some server messages as they are, so the server must speak the user's language).
 * The same texts as the web's catalogue (apps/web/src/locales/zh-CN/errors.json); a test keeps them equal.
 */
export const ErrorMessagesZh: Record<ErrorCode, string> = {
  '0001': '未知错误',
  '1001': '操作失败，服务不可用，请稍后再试',
  '1002': '调用远程服务出错',
  '1003': '参数异常：参数不完整',
  '1004': '输入无效',
  '1005': '没有修改',
  '1006': '验证码错误或已失效',
  '1007': '用户已冻结：账户已停用',
  '1008': '没有该集群的权限',
  '1009': '没有该接口的权限',
  '1010': '文件校验失败',
  '1011': '文件过大',
  '1012': '连接中断',
  '1013': '调用远程服务出错',
  '1017': '没有该用户的权限',
  '1018': '没有该账户的权限',
  '1020': '文件不存在',
  '1021': '已存在同名文件',
  '1022': '目标不是文件夹',
  '1023': '已存在同名目录',
  '1024': '目录不存在',
  '1025': '共享目录下已有同名文件，请重命名后再共享',
  '1026': '提取码错误',
  '1027': '名称包含特殊字符',
  '1028': '操作失败：包含异常文件',
  '1029': '名称或父路径包含特殊字符',
  '1030': '权限不足',
  '1031': '重命名失败',
  '1033': '参数中含有非法字符',
  '1404': '认证服务器连接异常',
  '1406': '服务器令牌认证失败，无相关用户',
  '1501': '空间不足',
  '1502': '文件夹不为空',
  '1505': '文件过大，无法预览',
  '1506': '该类型的文件不允许打开',
  '1507': '源与目标相同',
  '1508': '文件数量超过下载上限',
  '1509': '链接已过期',
  '601009': '集群用户不存在',
  '401': '未登录或登录已过期',
  '403': '没有权限',
  '404': '页面或接口不存在！',
  '429': '尝试次数过多，请稍后再试',
  '500': '服务器内部错误。',
  '612007': '账户已停用',
  '631013': '未安装快传客户端',
  LINK_CLOSED: '链接已关闭，请联系分享者',
  OPERATION_LIMIT: '复制或移动进程已达上限，请稍后重试',
  LOGIN_FAILED: '用户名或密码错误',
  LOGIN_THROTTLED: '登录失败次数过多，请稍后再试',
  CSRF: '请求被拒绝：缺少或无效的 CSRF 令牌',
  REQUEST_TIME: '请求时间与服务器时间相差过大，请检查本机时钟',
  JOB_USER_MODE: '作业功能需要按用户运行的模式：本作业服务以单一账号运行所有用户',
  JOB_NOT_FOUND: '作业不存在或不属于您',
  JOB_SCRIPT_TEXT: '作业脚本必须是文本',
  JOB_SCHEDULER_DOWN: '调度系统没有响应，请稍后再试',
  JOB_REFUSED: '调度系统拒绝了该作业',
  JOB_PARTITION: '调度系统拒绝了该作业：队列无效',
  JOB_TIME_LIMIT: '调度系统拒绝了该作业：运行时间超过队列上限',
  JOB_GRES: '调度系统拒绝了该作业：GPU 或通用资源申请无效',
  JOB_ACCOUNT: '调度系统拒绝了该作业：账户无效或账户与队列不匹配',
  JOB_QOS: '调度系统拒绝了该作业：QOS 无效',
  JOB_RESOURCES: '调度系统拒绝了该作业：申请的资源超过队列所有',
  JOB_STATE: '作业当前的状态不允许此操作',
  ESHELL_NODE: '该登录节点不属于此集群',
  ESHELL_SESSION_LIMIT: '打开的命令行会话过多，请关闭一个后重试',
  ESHELL_NO_SESSION: '命令行会话已结束',
  ESHELL_TICKET: '命令行连接凭据无效或已使用',
};

/** The languages the servers answer messages in. */
export type MessageLanguage = 'zh-CN' | 'en-US';

/**
 * The language an `Accept-Language` header prefers among ours: the Chinese or English tag with the highest weight
 * (the first on a tie). Without either (no header, `*`) English, the language the servers' own messages are in.
 */
export function preferredMessageLanguage(acceptLanguage: string | undefined): MessageLanguage {
  let best: { lang: MessageLanguage; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const lang: MessageLanguage | null = /^zh(-|$)/.test(tag)
      ? 'zh-CN'
      : /^en(-|$)/.test(tag)
        ? 'en-US'
        : null;
    if (!lang) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? 'en-US';
}

/**
 * A message written for the occasion ("Not a folder: /data/x"), in both languages the servers answer in. Each
 * server package keeps its texts in one catalogue (`src/messages.ts`) of such pairs, or of functions that make them
 * from the occasion's values, so that an API client asking for Chinese gets Chinese (issue 13 §1.3) and a test can
 * check every pair.
 */
export interface ServerText {
  readonly en: string;
  readonly zh: string;
}

/**
 * The message of an error answer in the asked language. Chinese when preferred: the occasion's own Chinese text
 * (`zh`) when the error has one, else the registry's text of `code` when the message is the registry's own; a
 * message with no Chinese (relayed from elsewhere) stays as it is (English). `lang` is the language of what is
 * returned, for the `Content-Language` header.
 */
export function localisedErrorMessage(
  code: string,
  msg: string,
  acceptLanguage: string | undefined,
  zh?: string | null,
): { msg: string; lang: MessageLanguage } {
  if (preferredMessageLanguage(acceptLanguage) !== 'zh-CN') return { msg, lang: 'en-US' };
  if (zh) return { msg: zh, lang: 'zh-CN' };
  const known = Object.hasOwn(ErrorMessagesZh, code) ? (code as ErrorCode) : null;
  if (known && msg === ErrorCodes[known].en) return { msg: ErrorMessagesZh[known], lang: 'zh-CN' };
  return { msg, lang: 'en-US' };
}
